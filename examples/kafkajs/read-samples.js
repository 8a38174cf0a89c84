'use strict';
// Reads a Quotaflow topic (quotaflow.samples by default) with kafkajs and prints every record as one
// JSON line: {"topic", "partition", "offset", "key", "schema_id", "value"}. Keys are plain UTF-8
// strings; values are Avro in the Confluent wire format (0x00, 4-byte big-endian schema id, Avro
// binary), decoded by @kafkajs/confluent-schema-registry, which fetches each writer schema by id
// from the registry once and caches it. See docs/data.md.
//
//   npm install --no-audit --no-fund
//   node read-samples.js --bootstrap localhost:9092 --registry http://localhost:8081 \
//       [--topic quotaflow.samples] [--group quotaflow-example-kafkajs] [--max-records N] [--timeout-ms T]
//
// Without --max-records it reads until Ctrl-C. With it, it exits 0 after N records, or 1 if
// --timeout-ms passes first.
const { Kafka, logLevel } = require('kafkajs');
const { SchemaRegistry } = require('@kafkajs/confluent-schema-registry');

function options(argv) {
  const given = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) {
      throw new Error(`expected --name value pairs, got: ${argv.slice(i).join(' ')}`);
    }
    given[argv[i].slice(2)] = argv[i + 1];
  }
  if (!given.bootstrap || !given.registry) {
    throw new Error('usage: node read-samples.js --bootstrap HOST:PORT --registry URL [--topic T] [--group G] '
      + '[--max-records N] [--timeout-ms T]');
  }
  return {
    bootstrap: given.bootstrap,
    registry: given.registry,
    topic: given.topic || 'quotaflow.samples',
    group: given.group || 'quotaflow-example-kafkajs',
    maxRecords: given['max-records'] === undefined ? Infinity : Number(given['max-records']),
    timeoutMs: given['timeout-ms'] === undefined ? 0 : Number(given['timeout-ms']),
  };
}

// The 5-byte Confluent header: magic byte 0, then the schema id as a big-endian int.
function schemaIdOf(value) {
  if (value.length < 5 || value[0] !== 0) {
    throw new Error('not in the Confluent wire format (no magic byte 0)');
  }
  return value.readInt32BE(1);
}

async function main() {
  const opts = options(process.argv.slice(2));
  const kafka = new Kafka({ clientId: 'quotaflow-example-kafkajs', brokers: opts.bootstrap.split(','), logLevel: logLevel.WARN });
  const registry = new SchemaRegistry({ host: opts.registry });
  // kafkajs reads committed records only (readUncommitted defaults to false): the streams app writes
  // its decision topics in transactions (exactly_once_v2), and aborted ones must not be seen.
  const consumer = kafka.consumer({ groupId: opts.group, readUncommitted: false });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: opts.topic, fromBeginning: true });
    let seen = 0;
    await new Promise((resolve, reject) => {
      const timer = opts.timeoutMs > 0
        ? setTimeout(() => reject(new Error(`read ${seen} of ${opts.maxRecords} records within ${opts.timeoutMs} ms`)), opts.timeoutMs)
        : null;
      consumer.run({
        eachMessage: async ({ topic, partition, message }) => {
          if (seen >= opts.maxRecords) {
            return;
          }
          const key = message.key === null ? null : message.key.toString('utf8');
          // A null value is a tombstone (task-specs when a task is gone): not framed, nothing to decode.
          const schemaId = message.value === null ? null : schemaIdOf(message.value);
          const value = message.value === null ? null : await registry.decode(message.value);
          process.stdout.write(JSON.stringify({ topic, partition, offset: Number(message.offset), key, schema_id: schemaId, value }) + '\n');
          seen += 1;
          if (seen >= opts.maxRecords) {
            if (timer) {
              clearTimeout(timer);
            }
            resolve();
          }
        },
      }).catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error && error.stack ? error.stack : error);
    process.exit(1);
  });

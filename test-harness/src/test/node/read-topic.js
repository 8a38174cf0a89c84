'use strict';
// The independent-client check: consume a topic from the beginning with kafkajs and decode every
// value through the schema registry with @kafkajs/confluent-schema-registry, as a data team's own
// tool would. Prints one JSON line per record: {"partition", "offset", "key", "value"}.
//
// Usage: node read-topic.js <bootstrap> <registry-url> <topic> <expected-count> <timeout-ms>
const { Kafka, logLevel } = require('kafkajs');
const { SchemaRegistry } = require('@kafkajs/confluent-schema-registry');

async function main() {
  const [bootstrap, registryUrl, topic, expectedText, timeoutText] = process.argv.slice(2);
  if (!timeoutText) {
    throw new Error('usage: node read-topic.js <bootstrap> <registry-url> <topic> <expected-count> <timeout-ms>');
  }
  const expected = Number(expectedText);
  const kafka = new Kafka({ clientId: 'quotaflow-node-check', brokers: bootstrap.split(','), logLevel: logLevel.WARN });
  const registry = new SchemaRegistry({ host: registryUrl });
  // A group of its own: kafkajs consumers always join one.
  const consumer = kafka.consumer({ groupId: `quotaflow-node-check-${process.pid}-${Date.now()}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let seen = 0;
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${seen} of ${expected} records within ${timeoutText} ms`)),
        Number(timeoutText));
      consumer.run({
        eachMessage: async ({ partition, message }) => {
          const value = await registry.decode(message.value);
          const key = message.key === null ? null : message.key.toString('utf8');
          process.stdout.write(JSON.stringify({ partition, offset: message.offset, key, value }) + '\n');
          seen += 1;
          if (seen >= expected) {
            clearTimeout(timer);
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

#!/usr/bin/env python3
"""Reads a Quotaflow topic (quotaflow.samples by default) and prints every record as one JSON line:
{"topic", "partition", "offset", "key", "schema_id", "value"}. See docs/data.md.

Keys are plain UTF-8 strings. Values are Avro in the Confluent wire format: byte 0 is the magic
byte 0, bytes 1-4 the schema id (big-endian), the rest the Avro binary encoding. This reads them
with confluent-kafka's plain Consumer and Apache Avro's DatumReader, fetching each writer schema
by id from the registry's REST API (GET /schemas/ids/<id>) once. It does not use confluent-kafka's
AvroDeserializer because that needs fastavro, which Debian does not package; where fastavro is
installed (pip install "confluent-kafka[avro]"), AvroDeserializer(SchemaRegistryClient(...))
decodes the same bytes.

    apt-get install python3-confluent-kafka python3-avro      # or: pip install confluent-kafka avro
    python3 read_samples.py --bootstrap localhost:9092 --registry http://localhost:8081 \
        [--topic quotaflow.samples] [--group quotaflow-example-python] [--max-records N] [--timeout-s T]

Without --max-records it reads until Ctrl-C. With it, it exits 0 after N records, or 1 if
--timeout-s passes first.
"""
import argparse
import io
import json
import struct
import sys
import time
import urllib.request

import avro.io
import avro.schema
from confluent_kafka import Consumer, KafkaException

MAGIC_BYTE = 0


class RegistrySchemas:
    """Writer schemas by id, fetched from a Confluent-compatible registry once each."""

    def __init__(self, url):
        self.url = url.rstrip("/")
        self.readers = {}

    def reader(self, schema_id):
        if schema_id not in self.readers:
            with urllib.request.urlopen(f"{self.url}/schemas/ids/{schema_id}", timeout=10) as reply:
                schema = avro.schema.parse(json.load(reply)["schema"])
            self.readers[schema_id] = avro.io.DatumReader(schema)
        return self.readers[schema_id]


def decode(value, schemas):
    """(schema id, decoded record) of a Confluent-framed Avro value."""
    if len(value) < 5 or value[0] != MAGIC_BYTE:
        raise ValueError("not in the Confluent wire format (no magic byte 0)")
    schema_id = struct.unpack(">I", value[1:5])[0]
    record = schemas.reader(schema_id).read(avro.io.BinaryDecoder(io.BytesIO(value[5:])))
    return schema_id, record


def main():
    parser = argparse.ArgumentParser(description="Print a Quotaflow topic's records as JSON lines.")
    parser.add_argument("--bootstrap", required=True, help="Kafka bootstrap servers, host:port[,host:port]")
    parser.add_argument("--registry", required=True, help="schema registry URL, e.g. http://localhost:8081")
    parser.add_argument("--topic", default="quotaflow.samples")
    parser.add_argument("--group", default="quotaflow-example-python")
    parser.add_argument("--max-records", type=int, default=None)
    parser.add_argument("--timeout-s", type=float, default=None)
    args = parser.parse_args()

    schemas = RegistrySchemas(args.registry)
    consumer = Consumer({
        "bootstrap.servers": args.bootstrap,
        "group.id": args.group,
        "auto.offset.reset": "earliest",
        # The streams app writes its topics in transactions (exactly_once_v2): read only committed
        # records, or a decision of an aborted transaction (a failed-over instance's) is seen.
        "isolation.level": "read_committed",
        "enable.auto.commit": False,
    })
    consumer.subscribe([args.topic])
    seen = 0
    deadline = None if args.timeout_s is None else time.monotonic() + args.timeout_s
    try:
        while args.max_records is None or seen < args.max_records:
            if deadline is not None and time.monotonic() > deadline:
                print(f"read {seen} of {args.max_records} records within {args.timeout_s} s", file=sys.stderr)
                return 1
            message = consumer.poll(1.0)
            if message is None:
                continue
            if message.error():
                raise KafkaException(message.error())
            key = None if message.key() is None else message.key().decode("utf-8")
            # A null value is a tombstone (task-specs when a task is gone): not framed, nothing to decode.
            schema_id, value = (None, None) if message.value() is None else decode(message.value(), schemas)
            print(json.dumps({"topic": message.topic(), "partition": message.partition(), "offset": message.offset(),
                              "key": key, "schema_id": schema_id, "value": value}), flush=True)
            seen += 1
    except KeyboardInterrupt:
        pass
    finally:
        consumer.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

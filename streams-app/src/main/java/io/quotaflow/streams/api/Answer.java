package io.quotaflow.streams.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One HTTP answer of the API.
 *
 * @param json the body, always JSON
 * @param servedBy {@code host:port} of the instance that read the store (or refused), so a client sees who answered; null before the API is attached to a running app
 */
record Answer(int status, String json, String servedBy) {

  static Answer error(int status, String reason, String servedBy) {
    ObjectNode body = LiveJson.MAPPER.createObjectNode().put("status", status).put("reason", reason);
    return new Answer(status, LiveJson.write(body), servedBy);
  }
}

package io.quotaflow.embedded;

/** An answer to send: HTTP status and JSON body. */
record ApiReply(int status, String json) {

  static ApiReply ok(String json) {
    return new ApiReply(200, json);
  }
}

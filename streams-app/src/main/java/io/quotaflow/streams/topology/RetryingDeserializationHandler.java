package io.quotaflow.streams.topology;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;

/**
 * Poison records go to the DLQ and processing continues (the built-in handler, with
 * {@code errors.dead.letter.queue.topic.name} set); a record that failed because the schema
 * registry could not be reached is not poison: the handler fails, the transaction aborts, the
 * stream thread is replaced and the record is read again once the registry answers.
 */
public final class RetryingDeserializationHandler extends LogAndContinueExceptionHandler {

  @Override
  public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
    for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
      if (cause instanceof RetriableException) {
        return Response.fail();
      }
    }
    return super.handleError(context, record, exception);
  }
}

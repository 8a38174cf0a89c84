package io.quotaflow.testharness;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a real Kafka broker and schema registry as a {@link KafkaEnv} parameter (of a test,
 * lifecycle method or constructor):
 *
 * <pre>{@code
 * @ExtendWith(KafkaHarness.class)
 * class SamplesIT {
 *   @Test
 *   void roundTrip(KafkaEnv kafka) { String topic = TestTopics.create(kafka, "samples", 3); ... }
 * }
 * }</pre>
 *
 * <p>By default that is the embedded broker and registry, started on first use and shared by every
 * test of the JVM, closed when the run ends. The environment can point tests elsewhere (see
 * {@link HarnessSource}: {@code QUOTAFLOW_TEST_BOOTSTRAP}, {@code QUOTAFLOW_TEST_REGISTRY},
 * {@code QUOTAFLOW_TEST_KAFKA}). Because the pair is shared, tests use their own topics
 * ({@link TestTopics}) and consumer groups, and wait with {@link KafkaWait}.
 */
public final class KafkaHarness implements ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KafkaHarness.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == KafkaEnv.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return env(context);
  }

  /** The shared pair, started on first use; for extensions and {@code @RegisterExtension} code. */
  public static KafkaEnv env(ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent(SharedKafka.class, key -> SharedKafka.start(HarnessSource.fromEnvironment(System.getenv())),
            SharedKafka.class)
        .env();
  }
}

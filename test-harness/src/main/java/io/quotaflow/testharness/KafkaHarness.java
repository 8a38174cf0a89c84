package io.quotaflow.testharness;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
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
 *
 * <p>With {@code QUOTAFLOW_TEST_KAFKA=testcontainers} and {@code QUOTAFLOW_TEST_WITHOUT_DOCKER=skip},
 * the tests are skipped, with the reason, where no Docker engine or no image is there (a machine
 * without Docker is not a failure of the code under test); without {@code skip} they fail saying why.
 */
public final class KafkaHarness implements ParameterResolver, ExecutionCondition {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KafkaHarness.class);

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (HarnessSource.fromEnvironment(System.getenv()) instanceof HarnessSource.Container wanted
        && wanted.skipWithoutDocker()) {
      var reason = DockerReadiness.whyNot(wanted.image());
      if (reason.isPresent()) {
        return ConditionEvaluationResult.disabled(HarnessSource.MODE + "=testcontainers skipped (" + HarnessSource.WITHOUT_DOCKER
            + "=skip): " + reason.get());
      }
    }
    return ConditionEvaluationResult.enabled("the harness can give this test Kafka");
  }

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

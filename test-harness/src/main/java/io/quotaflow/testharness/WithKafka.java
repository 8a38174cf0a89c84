package io.quotaflow.testharness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/** Shorthand for {@code @ExtendWith(KafkaHarness.class)}: test methods may take a {@link KafkaEnv}. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(KafkaHarness.class)
public @interface WithKafka {}

package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.PlainFileTree;
import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.schemas.EnforcementHeaders;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.WithKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task group that is a symlink is refused, on the real broker. cgroupfs itself cannot hold a
 * symlink (the kernel answers EPERM, checked below), so this runs the enforcer and the real
 * cgroups module over a directory tree laid out like a v1 mount: a symlink found under the parent
 * means a misconfigured root or tampering, and must never be followed.
 */
@WithKafka
class SymlinkedGroupTest {


  @TempDir Path root;
  @TempDir Path stateDir;

  @Test
  void aSymlinkedGroupIsRejectedAndItsTargetNeverWritten(KafkaEnv env) throws Exception {
    PlainFileTree tree = PlainFileTree.v1(root, "qf").v1Task("qf", "real");
    for (String controller : List.of("cpu", "cpuacct", "memory", "freezer")) {
      tree.v1Group(controller, "victim");
      Files.createSymbolicLink(tree.path(controller + "/qf/evil"), tree.path(controller + "/victim"));
    }
    try (EnforcerFixture kafka = new EnforcerFixture(env)) {
      kafka.start(new CgroupConfig(root, CgroupLayout.V1, CgroupParent.at("/qf")), stateDir.resolve("state.json"));

      RecordMetadata cpu = kafka.cpu("evil", true, 2, 1_000);
      RecordMetadata freeze = kafka.freeze("evil", FreezeAction.FREEZE, 60_000L);
      for (RecordMetadata decision : List.of(cpu, freeze)) {
        EnforcementResult result = kafka.awaitAnswer(decision);
        assertThat(result.getStatus()).isEqualTo(EnforcementStatus.REJECTED);
        assertThat(result.getDetail()).contains("refused for safety", "symbolic link");
      }
      assertThat(Files.readString(root.resolve("cpu/victim/cpu.shares"))).isEqualTo("1024\n");
      assertThat(Files.readString(root.resolve("cpu/victim/cpu.cfs_quota_us"))).isEqualTo("-1\n");
      assertThat(Files.readString(root.resolve("freezer/victim/freezer.state"))).isEqualTo("THAWED\n");

      // The same enforcer writes a real directory under the same parent: the refusal is the symlink's.
      EnforcementResult real = kafka.awaitAnswer(kafka.cpu("real", true, 2, 1_000));
      assertThat(real.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
      assertThat(Files.readString(root.resolve("cpu/qf/real/cpu.shares"))).isEqualTo("2");

      // Every result says its status in a header too, which the streams app reads before decoding (docs/contracts.md).
      List<ConsumerRecord<String, EnforcementResult>> published = KafkaWait.records(env, kafka.topics.enforcementResults(),
          3, Duration.ofSeconds(30));
      assertThat(published).allSatisfy(r -> assertThat(new String(
          r.headers().lastHeader(EnforcementHeaders.STATUS).value(), StandardCharsets.UTF_8))
          .isEqualTo(r.value().getStatus().name()));
    }
  }

  @Test
  void cgroupfsItselfRefusesSymlinks() throws Exception {
    try (CgroupSandbox sandbox = Sandboxes.openV1WithFreezerOrSkip()) {
      Path parent = sandbox.parentDir("cpu");
      assertThatThrownBy(() -> Files.createSymbolicLink(parent.resolve("evil"), root))
          .isInstanceOf(FileSystemException.class).hasMessageContaining("Operation not permitted");
    }
  }
}

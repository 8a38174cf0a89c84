package io.quotaflow.embedded;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * The broker configuration of a single combined broker+controller node: everything that defaults
 * to a replication factor of 3 or waits for more members is brought down to one node.
 */
final class BrokerProperties {
  static final int NODE_ID = 1;
  static final String CONTROLLER_LISTENER = "CONTROLLER";
  static final String CLIENT_LISTENER = "PLAINTEXT";

  private BrokerProperties() {}

  static Properties singleNode(Path dataDir, String host, String advertisedHost, int port, int controllerPort,
      Map<String, String> overrides) {
    return singleNode(dataDir, host, advertisedHost, port, controllerPort, overrides, null);
  }

  /** With {@code security}, the client listener is SASL_SSL (named so) and ACLs are enforced; the controller's stays PLAINTEXT. */
  static Properties singleNode(Path dataDir, String host, String advertisedHost, int port, int controllerPort,
      Map<String, String> overrides, BrokerSecurity security) {
    String client = security == null ? CLIENT_LISTENER : BrokerSecurity.LISTENER;
    Properties props = new Properties();
    props.put("process.roles", "broker,controller");
    props.put("node.id", Integer.toString(NODE_ID));
    // A static voter set (not a dynamic quorum): the voter's port comes from the config on every
    // start, so a restart on other ports keeps working with the same data directory. The voter is
    // named by the advertised host: Kafka refuses a wildcard bind address (0.0.0.0) as a voter.
    props.put("controller.quorum.voters", NODE_ID + "@" + advertisedHost + ":" + controllerPort);
    props.put("listeners", client + "://" + host + ":" + port + "," + CONTROLLER_LISTENER + "://" + host + ":" + controllerPort);
    props.put("advertised.listeners", client + "://" + advertisedHost + ":" + port);
    props.put("controller.listener.names", CONTROLLER_LISTENER);
    props.put("inter.broker.listener.name", client);
    props.put("listener.security.protocol.map", client + ":" + client + "," + CONTROLLER_LISTENER + ":PLAINTEXT");
    if (security != null) {
      props.putAll(security.brokerProperties());
    }
    props.put("log.dirs", dataDir.toString());
    props.put("metadata.log.dir", dataDir.toString());

    // One node: internal topics cannot have more replicas than that.
    props.put("offsets.topic.replication.factor", "1");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    props.put("default.replication.factor", "1");
    props.put("min.insync.replicas", "1");
    // Fewer internal partitions than the production 50: the first consumer group and the first
    // transaction create them, and on two cores 50 take seconds.
    props.put("offsets.topic.num.partitions", "5");
    props.put("transaction.state.log.num.partitions", "5");
    props.put("share.coordinator.state.topic.num.partitions", "5");
    // No other member will join: rebalance at once instead of waiting 3 s for one.
    props.put("group.initial.rebalance.delay.ms", "0");
    // Topics are created on purpose with their partition count (12 for node-keyed topics); a typo
    // must fail, not create a one-partition topic that breaks node partitioning.
    props.put("auto.create.topics.enable", "false");
    // The cleaner's dedupe buffer is allocated on the heap of the JVM the broker shares with tests
    // or with `quotaflow demo`; 8 MiB holds ~350k keys per cleaning pass, plenty for a local broker.
    props.put("log.cleaner.dedupe.buffer.size", Integer.toString(8 * 1024 * 1024));

    props.putAll(overrides);
    return props;
  }
}

package io.quotaflow.embedded;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;

/**
 * A secured client listener for an {@link EmbeddedKafka}: SASL_SSL with SCRAM users and the KRaft
 * {@code StandardAuthorizer}, so every client is authenticated over TLS and needs ACLs for what it
 * does. The controller listener stays PLAINTEXT on its own port (the broker's own link to its
 * controller; its principal, {@code ANONYMOUS}, is a super user).
 *
 * <p>The users' SCRAM credentials are written when the data directory is formatted (as
 * {@code kafka-storage.sh format --add-scram} does): a directory formatted before keeps the users it
 * had. {@link #superUser} bypasses ACLs; it is the broker's inter-broker identity and the one
 * {@link EmbeddedKafka#clientConfig()} connects as.
 *
 * @param keyStore PKCS12 key store with the broker's key and certificate (valid for the client host)
 * @param trustStore PKCS12 trust store that trusts that certificate (for clients and the broker's own connections)
 * @param storePassword password of both stores and of the key
 * @param mechanism {@code SCRAM-SHA-512} or {@code SCRAM-SHA-256}
 * @param users user name to password; must hold {@code superUser}
 * @param superUser the user that may do anything
 */
public record BrokerSecurity(Path keyStore, Path trustStore, String storePassword, String mechanism,
    Map<String, String> users, String superUser) {

  static final String LISTENER = "SASL_SSL";
  private static final Set<String> MECHANISMS = Set.of("SCRAM-SHA-512", "SCRAM-SHA-256");

  public BrokerSecurity {
    if (keyStore == null || trustStore == null || storePassword == null) {
      throw new IllegalArgumentException("a secured broker needs a key store, a trust store and their password");
    }
    if (!MECHANISMS.contains(mechanism)) {
      throw new IllegalArgumentException("SASL mechanism must be one of " + MECHANISMS + ", was " + mechanism);
    }
    users = Map.copyOf(users);
    if (!users.containsKey(superUser)) {
      throw new IllegalArgumentException("the super user " + superUser + " must be one of the users " + users.keySet());
    }
    for (String name : users.keySet()) {
      // The formatter's argument syntax ([name=...,password=...]) has no quoting.
      if (!name.matches("[A-Za-z0-9._-]+") || !users.get(name).matches("[A-Za-z0-9._-]+")) {
        throw new IllegalArgumentException("SCRAM user names and passwords are limited to [A-Za-z0-9._-], was " + name);
      }
    }
  }

  /** SCRAM-SHA-512 with {@code superUser} among {@code users}. */
  public static BrokerSecurity scram(Path keyStore, Path trustStore, String storePassword, String superUser,
      Map<String, String> users) {
    return new BrokerSecurity(keyStore, trustStore, storePassword, "SCRAM-SHA-512", users, superUser);
  }

  /** The client properties of {@code user}: SASL_SSL, SCRAM with its password, the trust store. */
  public Map<String, Object> clientConfig(String user) {
    String password = users.get(user);
    if (password == null) {
      throw new IllegalArgumentException("no user " + user + " (users: " + users.keySet() + ")");
    }
    Map<String, Object> config = new HashMap<>();
    config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
    config.put(SaslConfigs.SASL_MECHANISM, mechanism);
    config.put(SaslConfigs.SASL_JAAS_CONFIG, jaas(user, password));
    config.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, trustStore.toString());
    config.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, storePassword);
    config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
    return config;
  }

  /** The broker properties of the secured client listener named {@value #LISTENER}. */
  Map<String, String> brokerProperties() {
    String prefix = "listener.name." + LISTENER.toLowerCase() + ".";
    Map<String, String> props = new HashMap<>();
    props.put("sasl.enabled.mechanisms", mechanism);
    props.put("sasl.mechanism.inter.broker.protocol", mechanism);
    props.put(prefix + mechanism.toLowerCase() + ".sasl.jaas.config", jaas(superUser, users.get(superUser)));
    props.put("ssl.keystore.location", keyStore.toString());
    props.put("ssl.keystore.password", storePassword);
    props.put("ssl.key.password", storePassword);
    props.put("ssl.keystore.type", "PKCS12");
    props.put("ssl.truststore.location", trustStore.toString());
    props.put("ssl.truststore.password", storePassword);
    props.put("ssl.truststore.type", "PKCS12");
    props.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    // ANONYMOUS is the broker itself on the PLAINTEXT controller listener (registration, heartbeats).
    props.put("super.users", "User:" + superUser + ";User:ANONYMOUS");
    props.put("allow.everyone.if.no.acl.found", "false");
    return props;
  }

  /** The storage formatter's SCRAM arguments, one per user. */
  List<String> scramArguments() {
    return users.entrySet().stream()
        .map(user -> mechanism + "=[name=" + user.getKey() + ",password=" + user.getValue() + "]")
        .sorted()
        .toList();
  }

  private static String jaas(String user, String password) {
    return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
        + "\" password=\"" + password + "\";";
  }
}

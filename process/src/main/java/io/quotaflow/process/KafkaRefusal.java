package io.quotaflow.process;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;

/**
 * The broker refused a client: authentication failed, or an ACL is missing. Retrying does not help,
 * and Kafka's own exceptions, several wrappers deep, do not say as whom or what to do; this words
 * them as one line naming the principal, the resource and where the ACLs are listed.
 */
public final class KafkaRefusal {

  /** Where an operator finds what to grant. */
  public static final String ACLS_DOC = "docs/deployment.md \"ACLs per component\"";

  private static final Pattern USERNAME = Pattern.compile("username\\s*=\\s*\"([^\"]*)\"");

  private KafkaRefusal() {}

  /** Whether a refusal (authorization or authentication) is among {@code e}'s causes. */
  public static boolean isRefusal(Throwable e) {
    return refusal(e) != null;
  }

  /** One line for the refusal among {@code e}'s causes, or empty when there is none. */
  public static Optional<String> describe(Throwable e, Map<String, ?> clientProperties) {
    Throwable refusal = refusal(e);
    if (refusal == null) {
      return Optional.empty();
    }
    String who = principal(clientProperties);
    String grant = "; grant the ACLs " + ACLS_DOC + " lists";
    String line;
    if (refusal instanceof TopicAuthorizationException topics) {
      String names = topics.unauthorizedTopics().isEmpty() ? "a topic (" + topics.getMessage() + ")"
          : (topics.unauthorizedTopics().size() == 1 ? "topic " : "topics ") + String.join(", ", topics.unauthorizedTopics());
      line = who + " is not authorized to use " + names + grant;
    } else if (refusal instanceof GroupAuthorizationException group) {
      line = who + " is not authorized to use consumer group " + (group.groupId() != null ? group.groupId() : "(" + group.getMessage() + ")") + grant;
    } else if (refusal instanceof TransactionalIdAuthorizationException) {
      line = who + " is not authorized to use its transactional id (exactly-once producer)" + grant;
    } else if (refusal instanceof ClusterAuthorizationException) {
      line = who + " is not authorized for a cluster operation (" + refusal.getMessage() + ")" + grant;
    } else if (refusal instanceof AuthorizationException) {
      line = who + " is not authorized: " + refusal.getMessage() + grant;
    } else if (refusal instanceof SslAuthenticationException) {
      line = "TLS handshake with Kafka failed (" + ProcessException.rootMessage(refusal)
          + "); does ssl.truststore.location hold the broker's CA?";
    } else if (refusal instanceof SaslAuthenticationException) {
      line = "Kafka refused the login of " + who + ": " + refusal.getMessage() + "; check sasl.jaas.config";
    } else {
      line = "Kafka refused " + who + ": " + refusal.getMessage();
    }
    return Optional.of(line);
  }

  /** {@link #describe} when the broker refused, else {@link ProcessException#rootMessage}. */
  public static String message(Throwable e, Map<String, ?> clientProperties) {
    return describe(e, clientProperties).orElseGet(() -> ProcessException.rootMessage(e));
  }

  /** The principal the client logs in as, as ACLs name it: the SASL user name, when there is one. */
  static String principal(Map<String, ?> clientProperties) {
    Object jaas = clientProperties.get(SaslConfigs.SASL_JAAS_CONFIG);
    Matcher user = jaas == null ? null : USERNAME.matcher(jaas.toString());
    if (user != null && user.find()) {
      return "User:" + user.group(1);
    }
    Object protocol = clientProperties.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG);
    if (protocol != null && protocol.toString().equalsIgnoreCase("SSL")) {
      return "the principal of the client certificate";
    }
    return protocol == null || protocol.toString().equalsIgnoreCase("PLAINTEXT") ? "User:ANONYMOUS" : "this client";
  }

  private static Throwable refusal(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof AuthorizationException || t instanceof AuthenticationException) {
        return t;
      }
    }
    return null;
  }
}

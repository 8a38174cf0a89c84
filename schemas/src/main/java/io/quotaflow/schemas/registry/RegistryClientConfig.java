package io.quotaflow.schemas.registry;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * How to reach a registry. {@link #fromProperties} reads the property names Confluent's serdes use,
 * so one client properties file configures both.
 *
 * @param urls base URLs, tried in turn when one cannot be reached
 * @param basicAuthUserInfo {@code user:password}, or null for no authentication
 * @param sslContext TLS trust and key material, or null for the JVM's defaults
 * @param maxRetries further attempts after the first on connection errors and 5xx answers
 */
public record RegistryClientConfig(
    List<URI> urls,
    String basicAuthUserInfo,
    SSLContext sslContext,
    Duration connectTimeout,
    Duration requestTimeout,
    int maxRetries,
    Duration initialBackoff,
    Duration maxBackoff) {

  public static final String URL = "schema.registry.url";
  public static final String BASIC_AUTH_SOURCE = "basic.auth.credentials.source";
  public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
  public static final String MAX_RETRIES = "schema.registry.max.retries";
  public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";
  public static final String TRUSTSTORE_LOCATION = "schema.registry.ssl.truststore.location";
  public static final String TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
  public static final String TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";
  public static final String KEYSTORE_LOCATION = "schema.registry.ssl.keystore.location";
  public static final String KEYSTORE_PASSWORD = "schema.registry.ssl.keystore.password";
  public static final String KEYSTORE_TYPE = "schema.registry.ssl.keystore.type";
  public static final String KEY_PASSWORD = "schema.registry.ssl.key.password";

  public RegistryClientConfig {
    if (urls == null || urls.isEmpty()) {
      throw new IllegalArgumentException("no schema registry URL given (" + URL + ")");
    }
    urls = List.copyOf(urls);
    if (maxRetries < 0) {
      throw new IllegalArgumentException("max retries must be >= 0, was " + maxRetries);
    }
  }

  /** Defaults: 10 s connect, 30 s per request, 5 retries with backoff from 100 ms to 5 s. */
  public static RegistryClientConfig of(String commaSeparatedUrls) {
    return new RegistryClientConfig(parseUrls(commaSeparatedUrls), null, null,
        Duration.ofSeconds(10), Duration.ofSeconds(30), 5, Duration.ofMillis(100), Duration.ofSeconds(5));
  }

  public RegistryClientConfig withBasicAuth(String userInfo) {
    return new RegistryClientConfig(urls, userInfo, sslContext, connectTimeout, requestTimeout, maxRetries, initialBackoff, maxBackoff);
  }

  public RegistryClientConfig withSslContext(SSLContext context) {
    return new RegistryClientConfig(urls, basicAuthUserInfo, context, connectTimeout, requestTimeout, maxRetries, initialBackoff, maxBackoff);
  }

  public RegistryClientConfig withRetries(int retries, Duration initial, Duration max) {
    return new RegistryClientConfig(urls, basicAuthUserInfo, sslContext, connectTimeout, requestTimeout, retries, initial, max);
  }

  public RegistryClientConfig withRequestTimeout(Duration timeout) {
    return new RegistryClientConfig(urls, basicAuthUserInfo, sslContext, connectTimeout, timeout, maxRetries, initialBackoff, maxBackoff);
  }

  /** Reads Confluent's serde property names; unknown keys are ignored (they belong to Kafka clients). */
  public static RegistryClientConfig fromProperties(Map<String, ?> props) {
    Object url = props.get(URL);
    if (url == null) {
      throw new IllegalArgumentException("missing " + URL);
    }
    RegistryClientConfig config = of(url.toString());
    Object source = props.get(BASIC_AUTH_SOURCE);
    Object userInfo = props.get(BASIC_AUTH_USER_INFO);
    if (userInfo != null && (source == null || "USER_INFO".equals(source.toString()))) {
      config = config.withBasicAuth(userInfo.toString());
    }
    if (props.get(MAX_RETRIES) != null) {
      config = config.withRetries(Integer.parseInt(props.get(MAX_RETRIES).toString()), config.initialBackoff(), config.maxBackoff());
    }
    if (props.get(REQUEST_TIMEOUT_MS) != null) {
      config = config.withRequestTimeout(Duration.ofMillis(Long.parseLong(props.get(REQUEST_TIMEOUT_MS).toString())));
    }
    if (props.get(TRUSTSTORE_LOCATION) != null || props.get(KEYSTORE_LOCATION) != null) {
      config = config.withSslContext(sslContext(props));
    }
    return config;
  }

  private static SSLContext sslContext(Map<String, ?> props) {
    try {
      TrustManagerFactory trust = null;
      if (props.get(TRUSTSTORE_LOCATION) != null) {
        KeyStore store = load(props, TRUSTSTORE_LOCATION, TRUSTSTORE_PASSWORD, TRUSTSTORE_TYPE);
        trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
      }
      KeyManagerFactory keys = null;
      if (props.get(KEYSTORE_LOCATION) != null) {
        KeyStore store = load(props, KEYSTORE_LOCATION, KEYSTORE_PASSWORD, KEYSTORE_TYPE);
        keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        Object keyPassword = props.get(KEY_PASSWORD) != null ? props.get(KEY_PASSWORD) : props.get(KEYSTORE_PASSWORD);
        keys.init(store, keyPassword == null ? null : keyPassword.toString().toCharArray());
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys == null ? null : keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot set up TLS for the schema registry: " + e.getMessage(), e);
    }
  }

  private static KeyStore load(Map<String, ?> props, String location, String password, String type)
      throws IOException, GeneralSecurityException {
    Object kind = props.get(type);
    KeyStore store = KeyStore.getInstance(kind == null ? "PKCS12" : kind.toString());
    Object secret = props.get(password);
    try (InputStream in = Files.newInputStream(Path.of(props.get(location).toString()))) {
      store.load(in, secret == null ? null : secret.toString().toCharArray());
    }
    return store;
  }

  private static List<URI> parseUrls(String commaSeparated) {
    List<URI> urls = new ArrayList<>();
    for (String part : commaSeparated.split(",")) {
      String trimmed = part.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      URI uri = URI.create(trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
      if (uri.getScheme() == null || uri.getHost() == null && !"mock".equals(uri.getScheme())) {
        throw new IllegalArgumentException("schema registry URL '" + trimmed + "' is not an absolute http(s) URL");
      }
      urls.add(uri);
    }
    return urls;
  }
}

package io.quotaflow.schemas.registry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes the client a URL asks for: {@code mock://scope} gives the in-memory registry shared by
 * every client of that scope in this JVM (as Confluent's {@code mock://}); anything else the REST client.
 */
public final class SchemaRegistryClients {

  public static final String MOCK_SCHEME = "mock://";
  private static final Map<String, InMemorySchemaRegistryClient> SCOPES = new ConcurrentHashMap<>();

  private SchemaRegistryClients() {}

  public static SchemaRegistryClient create(Map<String, ?> props) {
    Object url = props.get(RegistryClientConfig.URL);
    if (url != null && url.toString().startsWith(MOCK_SCHEME)) {
      return scope(url.toString().substring(MOCK_SCHEME.length()));
    }
    return new RestSchemaRegistryClient(RegistryClientConfig.fromProperties(props));
  }

  public static SchemaRegistryClient create(String url) {
    return create(Map.of(RegistryClientConfig.URL, url));
  }

  /** The in-memory registry of a {@code mock://} scope, created on first use. */
  public static InMemorySchemaRegistryClient scope(String scope) {
    return SCOPES.computeIfAbsent(scope, s -> new InMemorySchemaRegistryClient());
  }

  /** Forgets a scope, so a test can start from an empty registry. */
  public static void dropScope(String scope) {
    SCOPES.remove(scope);
  }
}

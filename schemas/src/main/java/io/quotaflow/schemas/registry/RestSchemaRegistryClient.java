package io.quotaflow.schemas.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLHandshakeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Confluent Schema Registry REST client on the JDK's {@link HttpClient}. Ids and lookups are cached
 * (ids are immutable); connection errors and 5xx answers are retried with exponential backoff,
 * moving to the next URL, and end in a retriable {@link RegistryUnavailableException}; 4xx answers
 * are mapped to specific {@link SchemaRegistryException}s at once.
 */
public final class RestSchemaRegistryClient implements SchemaRegistryClient {

  static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RegistryClientConfig config;
  private final HttpClient http;
  private final String authorization;
  private final Map<Integer, Schema> schemaById = new ConcurrentHashMap<>();
  private final Map<SubjectSchema, Integer> registeredIds = new ConcurrentHashMap<>();
  private final Map<SubjectSchema, Integer> lookedUpIds = new ConcurrentHashMap<>();
  private volatile int preferredUrl;

  private record SubjectSchema(String subject, String schemaText) {}

  public RestSchemaRegistryClient(RegistryClientConfig config) {
    this.config = config;
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(config.connectTimeout());
    if (config.sslContext() != null) {
      builder.sslContext(config.sslContext());
    }
    this.http = builder.build();
    this.authorization = config.basicAuthUserInfo() == null ? null
        : "Basic " + Base64.getEncoder().encodeToString(config.basicAuthUserInfo().getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public int register(String subject, Schema schema) {
    SubjectSchema key = new SubjectSchema(subject, schema.toString());
    Integer cached = registeredIds.get(key);
    if (cached != null) {
      return cached;
    }
    JsonNode answer = call("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema));
    int id = answer.path("id").asInt();
    schemaById.putIfAbsent(id, schema);
    registeredIds.put(key, id);
    return id;
  }

  @Override
  public Schema getSchemaById(int id) {
    Schema cached = schemaById.get(id);
    if (cached != null) {
      return cached;
    }
    JsonNode answer = call("GET", "/schemas/ids/" + id, null);
    String type = answer.path("schemaType").asText("AVRO");
    if (!"AVRO".equals(type)) {
      throw new SchemaRegistryException(200, 42201, "schema id " + id + " is " + type + ", not AVRO");
    }
    Schema schema = parse(answer.path("schema").asText(), "schema id " + id);
    Schema raced = schemaById.putIfAbsent(id, schema);
    return raced == null ? schema : raced;
  }

  @Override
  public int getId(String subject, Schema schema) {
    SubjectSchema key = new SubjectSchema(subject, schema.toString());
    Integer cached = registeredIds.getOrDefault(key, lookedUpIds.get(key));
    if (cached != null) {
      return cached;
    }
    JsonNode answer = call("POST", "/subjects/" + encode(subject), schemaBody(schema));
    int id = answer.path("id").asInt();
    schemaById.putIfAbsent(id, schema);
    lookedUpIds.put(key, id);
    return id;
  }

  @Override
  public SchemaMetadata getLatestSchemaMetadata(String subject) {
    return metadata(call("GET", "/subjects/" + encode(subject) + "/versions/latest", null));
  }

  @Override
  public SchemaMetadata getSchemaMetadata(String subject, int version) {
    return metadata(call("GET", "/subjects/" + encode(subject) + "/versions/" + version, null));
  }

  @Override
  public List<Integer> getAllVersions(String subject) {
    List<Integer> versions = new ArrayList<>();
    call("GET", "/subjects/" + encode(subject) + "/versions", null).forEach(v -> versions.add(v.asInt()));
    return versions;
  }

  @Override
  public Collection<String> getAllSubjects() {
    List<String> subjects = new ArrayList<>();
    call("GET", "/subjects", null).forEach(s -> subjects.add(s.asText()));
    return subjects;
  }

  @Override
  public boolean testCompatibility(String subject, Schema schema) {
    try {
      return call("POST", "/compatibility/subjects/" + encode(subject) + "/versions/latest", schemaBody(schema))
          .path("is_compatible").asBoolean();
    } catch (SubjectNotFoundException | VersionNotFoundException e) {
      return true; // older servers answer 404 for a subject with no versions: anything may be its first
    }
  }

  @Override
  public CompatibilityLevel getCompatibility(String subject) {
    if (subject != null) {
      try {
        return level(call("GET", "/config/" + encode(subject) + "?defaultToGlobal=true", null));
      } catch (SubjectNotFoundException e) {
        // fall through: the subject has no level of its own
      } catch (SchemaRegistryException e) {
        if (e.errorCode() != 40408) {
          throw e;
        }
      }
    }
    return level(call("GET", "/config", null));
  }

  @Override
  public CompatibilityLevel updateCompatibility(String subject, CompatibilityLevel level) {
    ObjectNode body = JSON.createObjectNode().put("compatibility", level.name());
    JsonNode answer = call("PUT", subject == null ? "/config" : "/config/" + encode(subject), body);
    return CompatibilityLevel.parse(answer.path("compatibility").asText(level.name()));
  }

  private JsonNode call(String method, String path, JsonNode body) {
    List<URI> urls = config.urls();
    Duration backoff = config.initialBackoff();
    Exception lastFailure = null;
    String lastWhat = "";
    for (int attempt = 0; attempt <= config.maxRetries(); attempt++) {
      int urlIndex = (preferredUrl + attempt) % urls.size();
      URI url = URI.create(urls.get(urlIndex) + path);
      try {
        HttpResponse<String> response = http.send(request(method, url, body), HttpResponse.BodyHandlers.ofString());
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
          preferredUrl = urlIndex;
          return status == 204 || response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
        }
        SchemaRegistryException error = error(status, response.body());
        if (status == 401 || status == 403) {
          // Credentials do not get better with retries; say which setting holds them.
          throw new SchemaRegistryException(status, error.errorCode(), "the schema registry at " + urls.get(urlIndex)
              + (status == 401 ? " refused the credentials" : " forbids this user " + method + " " + path)
              + "; check " + RegistryClientConfig.BASIC_AUTH_USER_INFO);
        }
        if (status < 500) {
          throw error;
        }
        lastFailure = error;
        lastWhat = method + " " + url + " answered " + error.getMessage();
      } catch (SSLHandshakeException e) {
        // An untrusted certificate stays untrusted: no retries, and the setting that decides it.
        throw new RegistryUnavailableException("TLS handshake with the schema registry at " + urls.get(urlIndex)
            + " failed (" + rootMessage(e) + "); does " + RegistryClientConfig.TRUSTSTORE_LOCATION
            + " hold its certificate's CA?", e);
      } catch (IOException e) {
        lastFailure = e;
        lastWhat = method + " " + url + " failed: " + e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RegistryUnavailableException("interrupted while calling the schema registry", e);
      }
      if (attempt < config.maxRetries()) {
        sleep(backoff);
        backoff = min(backoff.multipliedBy(2), config.maxBackoff());
      }
    }
    throw new RegistryUnavailableException("schema registry unavailable after " + (config.maxRetries() + 1)
        + " attempts; last: " + lastWhat, lastFailure);
  }

  private HttpRequest request(String method, URI url, JsonNode body) throws IOException {
    HttpRequest.Builder builder = HttpRequest.newBuilder(url)
        .timeout(config.requestTimeout())
        .header("Accept", CONTENT_TYPE + ", application/json");
    if (authorization != null) {
      builder.header("Authorization", authorization);
    }
    if (body == null) {
      builder.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      builder.header("Content-Type", CONTENT_TYPE).method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
    }
    return builder.build();
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() != null ? root.getMessage() : root.toString();
  }

  static SchemaRegistryException error(int status, String body) {
    try {
      JsonNode error = JSON.readTree(body);
      if (error != null && error.has("error_code")) {
        return SchemaRegistryException.of(status, error.path("error_code").asInt(), error.path("message").asText(""));
      }
    } catch (IOException e) {
      // not JSON: reported below with the client-side code, as Confluent's client does
    }
    String shown = body == null ? "" : body.length() > 200 ? body.substring(0, 200) + "…" : body;
    return SchemaRegistryException.of(status, SchemaRegistryException.UNPARSEABLE_ERROR_CODE, "unparseable error body: " + shown);
  }

  private static SchemaMetadata metadata(JsonNode answer) {
    String subject = answer.path("subject").asText();
    return new SchemaMetadata(subject, answer.path("version").asInt(), answer.path("id").asInt(),
        parse(answer.path("schema").asText(), "subject " + subject));
  }

  private static CompatibilityLevel level(JsonNode answer) {
    JsonNode level = answer.has("compatibilityLevel") ? answer.get("compatibilityLevel") : answer.path("compatibility");
    return CompatibilityLevel.parse(level.asText());
  }

  private static ObjectNode schemaBody(Schema schema) {
    return JSON.createObjectNode().put("schema", schema.toString());
  }

  private static Schema parse(String text, String what) {
    try {
      return new Schema.Parser().parse(text);
    } catch (SchemaParseException e) {
      throw new InvalidSchemaException(200, "registry returned an unparseable schema for " + what + ": " + e.getMessage());
    }
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static void sleep(Duration backoff) {
    try {
      Thread.sleep(backoff.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RegistryUnavailableException("interrupted while waiting to retry the schema registry", e);
    }
  }
}

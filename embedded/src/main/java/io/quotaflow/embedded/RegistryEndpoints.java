package io.quotaflow.embedded;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.schemas.registry.CompatibilityLevel;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import io.quotaflow.schemas.registry.InvalidCompatibilityLevelException;
import io.quotaflow.schemas.registry.SchemaMetadata;
import io.quotaflow.schemas.registry.SchemaRegistryException;
import java.util.List;
import org.apache.avro.Schema;

/**
 * Confluent Schema Registry's REST API over a {@link DurableRegistry}: the calls serdes and
 * clients make (Quotaflow's {@code RestSchemaRegistryClient}, kafkajs' confluent-schema-registry,
 * Confluent's serdes), with Confluent's paths, bodies and error codes.
 */
final class RegistryEndpoints {
  /** Confluent: the path names a version that is not a number or "latest". */
  static final int INVALID_VERSION_CODE = 42202;
  /** Confluent: GET /config/{subject} for a subject without a level of its own. */
  static final int NO_SUBJECT_LEVEL_CODE = 40408;
  private static final String LATEST = "latest";

  private final DurableRegistry registry;

  RegistryEndpoints(DurableRegistry registry) {
    this.registry = registry;
  }

  RegistryRoutes routes() {
    return new RegistryRoutes()
        .add("GET", "/", r -> ApiReply.ok("{}"))
        .add("GET", "/subjects", r -> subjects())
        .add("POST", "/subjects/{}", this::lookup)
        .add("GET", "/subjects/{}/versions", this::versions)
        .add("POST", "/subjects/{}/versions", this::register)
        .add("GET", "/subjects/{}/versions/{}", r -> ApiReply.ok(RegistryJson.version(version(r.param(0), r.param(1)))))
        .add("GET", "/subjects/{}/versions/{}/schema", r -> ApiReply.ok(version(r.param(0), r.param(1)).schema().toString()))
        .add("GET", "/schemas/types", r -> ApiReply.ok(RegistryJson.array().add("AVRO").toString()))
        .add("GET", "/schemas/ids/{}", r -> ApiReply.ok(RegistryJson.object().put("schema", schemaById(r.param(0)).toString()).toString()))
        .add("GET", "/schemas/ids/{}/schema", r -> ApiReply.ok(schemaById(r.param(0)).toString()))
        .add("POST", "/compatibility/subjects/{}/versions", r -> compatibility(r, null))
        .add("POST", "/compatibility/subjects/{}/versions/{}", r -> compatibility(r, r.param(1)))
        .add("GET", "/config", r -> level(reads().getCompatibility(null)))
        .add("PUT", "/config", r -> updateLevel(null, r))
        .add("GET", "/config/{}", this::subjectLevel)
        .add("PUT", "/config/{}", r -> updateLevel(r.param(0), r))
        .add("GET", "/mode", r -> ApiReply.ok(RegistryJson.object().put("mode", "READWRITE").toString()));
  }

  private InMemorySchemaRegistryClient reads() {
    return registry.reads();
  }

  private ApiReply subjects() {
    ArrayNode subjects = RegistryJson.array();
    reads().getAllSubjects().forEach(subjects::add);
    return ApiReply.ok(subjects.toString());
  }

  private ApiReply versions(ApiRequest request) {
    ArrayNode versions = RegistryJson.array();
    reads().getAllVersions(request.param(0)).forEach(versions::add);
    return ApiReply.ok(versions.toString());
  }

  private ApiReply register(ApiRequest request) {
    Schema schema = SchemaRequest.parse(request.body()).schema();
    int id = registry.register(request.param(0), schema);
    return ApiReply.ok(RegistryJson.object().put("id", id).toString());
  }

  private ApiReply lookup(ApiRequest request) {
    Schema schema = SchemaRequest.parse(request.body()).schema();
    return ApiReply.ok(RegistryJson.version(reads().lookup(request.param(0), schema)));
  }

  private SchemaMetadata version(String subject, String version) {
    int number = parseVersion(version);
    return number == -1 ? reads().getLatestSchemaMetadata(subject) : reads().getSchemaMetadata(subject, number);
  }

  private Schema schemaById(String id) {
    try {
      return reads().getSchemaById(Integer.parseInt(id));
    } catch (NumberFormatException e) {
      throw new SchemaRegistryException(404, 40403, "Schema " + id + " not found");
    }
  }

  /**
   * Against a numbered version: that version alone, in the level's direction. Against "latest" or
   * no version: every version the level names (all of them when transitive), i.e. exactly what
   * registering would check, so a CI check and a later register never disagree. A subject without
   * versions accepts anything.
   */
  private ApiReply compatibility(ApiRequest request, String version) {
    String subject = request.param(0);
    Schema schema = SchemaRequest.parse(request.body()).schema();
    List<String> problems;
    if (version == null || parseVersion(version) == -1) {
      problems = reads().compatibilityProblems(subject, schema);
    } else {
      SchemaMetadata against = version(subject, version);
      problems = reads().getCompatibility(subject).problems(schema, List.of(against.schema()));
    }
    ObjectNode answer = RegistryJson.object().put("is_compatible", problems.isEmpty());
    if (request.flag("verbose")) {
      ArrayNode messages = answer.putArray("messages");
      problems.forEach(messages::add);
    }
    return ApiReply.ok(answer.toString());
  }

  private ApiReply subjectLevel(ApiRequest request) {
    String subject = request.param(0);
    CompatibilityLevel own = reads().getSubjectCompatibility(subject);
    if (own != null) {
      return level(own);
    }
    if (request.flag("defaultToGlobal")) {
      return level(reads().getCompatibility(null));
    }
    throw new SchemaRegistryException(404, NO_SUBJECT_LEVEL_CODE,
        "Subject '" + subject + "' does not have subject-level compatibility configured");
  }

  private ApiReply updateLevel(String subjectOrNull, ApiRequest request) {
    String name = RegistryJson.read(request.body()).path("compatibility").asText("");
    CompatibilityLevel level;
    try {
      level = CompatibilityLevel.parse(name);
    } catch (IllegalArgumentException e) {
      throw new InvalidCompatibilityLevelException("Invalid compatibility level '" + name + "'. Valid values are none, "
          + "backward, forward, full, backward_transitive, forward_transitive, and full_transitive");
    }
    CompatibilityLevel set = registry.updateCompatibility(subjectOrNull, level);
    return ApiReply.ok(RegistryJson.object().put("compatibility", set.name()).toString());
  }

  private static ApiReply level(CompatibilityLevel level) {
    return ApiReply.ok(RegistryJson.object().put("compatibilityLevel", level.name()).toString());
  }

  /** A version number (1 or more), or -1 for "latest" (Confluent accepts both spellings). */
  private static int parseVersion(String text) {
    if (LATEST.equals(text)) {
      return -1;
    }
    try {
      int version = Integer.parseInt(text);
      if (version >= 1 || version == -1) {
        return version;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new SchemaRegistryException(422, INVALID_VERSION_CODE, "The specified version '" + text
        + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\"");
  }
}

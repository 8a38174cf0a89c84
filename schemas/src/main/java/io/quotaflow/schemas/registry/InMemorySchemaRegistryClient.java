package io.quotaflow.schemas.registry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.apache.avro.Schema;

/**
 * A complete registry held in memory: global ids (the same schema gets the same id under every
 * subject), versions per subject, compatibility levels checked on register. Used by tests and the
 * offline {@code simulate} through {@code mock://scope} URLs, and by the embedded registry server,
 * which persists every change through a {@link Journal} and rebuilds with {@link #replay}.
 */
public final class InMemorySchemaRegistryClient implements SchemaRegistryClient {

  /** Receives every change before it takes effect; a journal that throws aborts the change. */
  public interface Journal {
    void registered(SchemaMetadata registration);

    void compatibilityChanged(String subjectOrNullForGlobal, CompatibilityLevel level);
  }

  private static final Journal NO_JOURNAL = new Journal() {
    @Override
    public void registered(SchemaMetadata registration) {}

    @Override
    public void compatibilityChanged(String subject, CompatibilityLevel level) {}
  };

  private final Journal journal;
  private final Map<String, Integer> idBySchemaText = new HashMap<>();
  private final Map<Integer, Schema> schemaById = new HashMap<>();
  private final Map<String, List<Integer>> idsBySubject = new HashMap<>();
  private final Map<String, CompatibilityLevel> levelBySubject = new HashMap<>();
  private CompatibilityLevel globalLevel = CompatibilityLevel.BACKWARD;
  private int maxId;

  public InMemorySchemaRegistryClient() {
    this(NO_JOURNAL);
  }

  public InMemorySchemaRegistryClient(Journal journal) {
    this.journal = Objects.requireNonNull(journal, "journal");
  }

  @Override
  public synchronized int register(String subject, Schema schema) {
    requireSubject(subject);
    List<Integer> ids = idsBySubject.getOrDefault(subject, List.of());
    String text = schema.toString();
    Integer known = idBySchemaText.get(text);
    if (known != null && ids.contains(known)) {
      return known;
    }
    List<String> problems = getCompatibility(subject).problems(schema, schemasOf(ids));
    if (!problems.isEmpty()) {
      throw new IncompatibleSchemaException("schema for subject '" + subject + "' is incompatible at level "
          + getCompatibility(subject) + ": " + String.join("; ", problems));
    }
    int id = known != null ? known : maxId + 1;
    SchemaMetadata registration = new SchemaMetadata(subject, ids.size() + 1, id, schema);
    journal.registered(registration);
    apply(registration);
    return id;
  }

  /** Rebuilds state from a journal entry, without compatibility checks: the entry was checked when written. */
  public synchronized void replay(SchemaMetadata registration) {
    List<Integer> ids = idsBySubject.getOrDefault(registration.subject(), List.of());
    if (ids.size() >= registration.version()) {
      return;
    }
    apply(registration);
  }

  /** Rebuilds a compatibility level from a journal entry. */
  public synchronized void replayCompatibility(String subjectOrNullForGlobal, CompatibilityLevel level) {
    setLevel(subjectOrNullForGlobal, level);
  }

  private void apply(SchemaMetadata registration) {
    idBySchemaText.putIfAbsent(registration.schema().toString(), registration.id());
    schemaById.putIfAbsent(registration.id(), registration.schema());
    idsBySubject.computeIfAbsent(registration.subject(), s -> new ArrayList<>()).add(registration.id());
    maxId = Math.max(maxId, registration.id());
  }

  @Override
  public synchronized Schema getSchemaById(int id) {
    Schema schema = schemaById.get(id);
    if (schema == null) {
      throw new SchemaNotFoundException("schema id " + id + " not found");
    }
    return schema;
  }

  @Override
  public synchronized int getId(String subject, Schema schema) {
    List<Integer> ids = versions(subject);
    Integer id = idBySchemaText.get(schema.toString());
    if (id == null || !ids.contains(id)) {
      throw new SchemaNotFoundException("schema not registered under subject '" + subject + "'");
    }
    return id;
  }

  /** The version of {@code schema} under {@code subject}, as {@code POST /subjects/{s}} answers. */
  public synchronized SchemaMetadata lookup(String subject, Schema schema) {
    int id = getId(subject, schema);
    return new SchemaMetadata(subject, versions(subject).indexOf(id) + 1, id, schemaById.get(id));
  }

  @Override
  public synchronized SchemaMetadata getLatestSchemaMetadata(String subject) {
    List<Integer> ids = versions(subject);
    return getSchemaMetadata(subject, ids.size());
  }

  @Override
  public synchronized SchemaMetadata getSchemaMetadata(String subject, int version) {
    List<Integer> ids = versions(subject);
    if (version < 1 || version > ids.size()) {
      throw new VersionNotFoundException("subject '" + subject + "' has no version " + version);
    }
    int id = ids.get(version - 1);
    return new SchemaMetadata(subject, version, id, schemaById.get(id));
  }

  @Override
  public synchronized List<Integer> getAllVersions(String subject) {
    List<Integer> ids = versions(subject);
    List<Integer> versions = new ArrayList<>(ids.size());
    for (int v = 1; v <= ids.size(); v++) {
      versions.add(v);
    }
    return versions;
  }

  @Override
  public synchronized Collection<String> getAllSubjects() {
    return List.copyOf(new TreeSet<>(idsBySubject.keySet()));
  }

  @Override
  public synchronized boolean testCompatibility(String subject, Schema schema) {
    requireSubject(subject);
    return getCompatibility(subject).isCompatible(schema, schemasOf(idsBySubject.getOrDefault(subject, List.of())));
  }

  /** The problems {@link #testCompatibility} found, for {@code ?verbose=true}. */
  public synchronized List<String> compatibilityProblems(String subject, Schema schema) {
    requireSubject(subject);
    return getCompatibility(subject).problems(schema, schemasOf(idsBySubject.getOrDefault(subject, List.of())));
  }

  @Override
  public synchronized CompatibilityLevel getCompatibility(String subject) {
    if (subject == null) {
      return globalLevel;
    }
    return levelBySubject.getOrDefault(subject, globalLevel);
  }

  /** The level set on the subject itself, or null when it follows the global level. */
  public synchronized CompatibilityLevel getSubjectCompatibility(String subject) {
    return levelBySubject.get(subject);
  }

  @Override
  public synchronized CompatibilityLevel updateCompatibility(String subject, CompatibilityLevel level) {
    Objects.requireNonNull(level, "level");
    journal.compatibilityChanged(subject, level);
    setLevel(subject, level);
    return level;
  }

  private void setLevel(String subject, CompatibilityLevel level) {
    if (subject == null) {
      globalLevel = level;
    } else {
      levelBySubject.put(subject, level);
    }
  }

  private List<Integer> versions(String subject) {
    List<Integer> ids = idsBySubject.get(subject);
    if (ids == null) {
      throw new SubjectNotFoundException("subject '" + subject + "' not found");
    }
    return ids;
  }

  private List<Schema> schemasOf(List<Integer> ids) {
    List<Schema> schemas = new ArrayList<>(ids.size());
    for (int id : ids) {
      schemas.add(schemaById.get(id));
    }
    return schemas;
  }

  private static void requireSubject(String subject) {
    if (subject == null || subject.isBlank()) {
      throw new SchemaRegistryException(422, 42208, "subject name is empty");
    }
  }
}

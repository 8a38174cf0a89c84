package io.quotaflow.testharness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;

/** What a Prometheus server would read from a process's {@code /metrics}. */
public record Scrape(String text) {

  public static Scrape of(int port) throws IOException, InterruptedException {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new AssertionError("/metrics answered " + response.statusCode() + ": " + response.body());
    }
    return new Scrape(response.body());
  }

  /**
   * Name to type of every metric family, from the {@code # TYPE name type} lines (a timer's
   * {@code _max} is a family of its own).
   */
  public Map<String, String> families() {
    Map<String, String> types = new TreeMap<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("# TYPE ")) {
        String[] words = line.split(" ");
        types.put(words[2], words[3]);
      }
    }
    return types;
  }

  /** The families whose names start with {@code prefix}, such as {@code quotaflow_}. */
  public Map<String, String> families(String prefix) {
    Map<String, String> types = new TreeMap<>(families());
    types.keySet().removeIf(name -> !name.startsWith(prefix));
    return types;
  }

  /**
   * The value of the one series named {@code name} (whatever its labels), as a test reads a
   * counter or gauge of a process that serves one series of it; fails when there is none or several.
   */
  public double value(String name) {
    Double found = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("#")) {
        continue;
      }
      int end = line.indexOf('{') >= 0 ? line.indexOf('{') : line.indexOf(' ');
      if (end > 0 && line.substring(0, end).equals(name)) {
        if (found != null) {
          throw new AssertionError("more than one series named " + name + " in /metrics");
        }
        found = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    if (found == null) {
      throw new AssertionError("no series named " + name + " in /metrics");
    }
    return found;
  }
}

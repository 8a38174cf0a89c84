package io.quotaflow.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import io.quotaflow.process.Durations;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow health}: GETs a URL and exits 0 on status 200, 1 otherwise. The container
 * image's HEALTHCHECK runs it, because the JRE base image need not have curl or wget.
 */
@Command(
    name = "health",
    mixinStandardHelpOptions = true,
    description = {
        "GET a URL (a process's /health) and exit 0 when it answers 200, 1 otherwise (another status, no answer).",
        "For container health checks on images without curl."})
public final class HealthCommand implements Callable<Integer> {
  static final String DEFAULT_URL = "http://localhost:9401/health";

  @Option(names = "--url", paramLabel = "URL", defaultValue = DEFAULT_URL,
      description = "What to GET (default ${DEFAULT-VALUE}: the streams app's).")
  URI url;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "5s",
      converter = Durations.Positive.class,
      description = "How long to wait for the answer (default ${DEFAULT-VALUE}).")
  Duration timeout;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
    HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout).GET().build();
    try {
      HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
      out.println(url + " " + response.statusCode());
      out.flush();
      return response.statusCode() == 200 ? 0 : 1;
    } catch (IOException e) {
      out.println(url + " no answer: " + e);
      out.flush();
      return 1;
    }
  }
}

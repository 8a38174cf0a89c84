package io.quotaflow.streams.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RouteTest {

  @Test
  void theFourResourcesParseWithTheirIds() {
    assertThat(Route.parse("/pools")).isEqualTo(new Route(Route.Kind.POOLS, null, null));
    assertThat(Route.parse("/pools/")).isEqualTo(new Route(Route.Kind.POOLS, null, null));
    assertThat(Route.parse("/pools/prod")).isEqualTo(new Route(Route.Kind.POOL, null, "prod"));
    assertThat(Route.parse("/nodes/node-1")).isEqualTo(new Route(Route.Kind.NODE, "node-1", null));
    assertThat(Route.parse("/tasks/node-1/job:42@x")).isEqualTo(new Route(Route.Kind.TASK, "node-1", "job:42@x"));
    assertThat(Route.parse("/tasks/node-1/t%2D1/")).isEqualTo(new Route(Route.Kind.TASK, "node-1", "t-1"));
  }

  @Test
  void aPathThatCanNameNoKeyIsA404ThatSaysWhy() {
    assertNotFound("/tasks/node-1/.hidden", "invalid task id '.hidden': it starts with a dot");
    assertNotFound("/nodes/a%20b", "invalid node id 'a b': it has a character outside");
    assertNotFound("/tasks/a%2Fb/t", "invalid node id 'a/b'");
    assertNotFound("/pools/" + "p".repeat(129), "longer than 128 characters");
    assertNotFound("/tasks/node-1", "/tasks/{node}/{task}");
    assertNotFound("/nodes", "/nodes/{node}");
    assertNotFound("/poolsX", "no such resource '/poolsX'");
  }

  /** Found by OpsHttpFuzzTest: URLDecoder's exception for a '%' without two hex digits was answered 500. */
  @Test
  void aPercentThatDoesNotDecodeIsA400() {
    for (String path : new String[] {"/pools/%zz", "/nodes/n%", "/tasks/n1/t%4"}) {
      assertThatThrownBy(() -> Route.parse(path)).as(path).isInstanceOfSatisfying(ApiException.class, e -> {
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.getMessage()).contains("is not percent-encoded right");
      });
    }
  }

  private static void assertNotFound(String path, String reason) {
    assertThatThrownBy(() -> Route.parse(path)).isInstanceOfSatisfying(ApiException.class, e -> {
      assertThat(e.status()).isEqualTo(404);
      assertThat(e.getMessage()).contains(reason);
    });
  }
}

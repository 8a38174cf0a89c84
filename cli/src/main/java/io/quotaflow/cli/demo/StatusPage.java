package io.quotaflow.cli.demo;

import com.sun.net.httpserver.HttpHandler;
import io.quotaflow.process.ops.Markup;
import io.quotaflow.process.ops.OpsServer;
import java.util.List;
import java.util.function.Supplier;

/** The demo's status page: the live table as HTML, reloading itself every two seconds, with links to /metrics and /health. */
public final class StatusPage {

  private StatusPage() {}

  /** Serves {@link #html} of the current rows at {@code /}; anything else under {@code /} is 404. */
  public static HttpHandler handler(Supplier<String> headline, Supplier<DemoRows> rows) {
    return exchange -> {
      if (!exchange.getRequestURI().getPath().equals("/")) {
        OpsServer.respond(exchange, 404, "text/plain; charset=utf-8", "not found; try / , /metrics or /health\n");
        return;
      }
      OpsServer.respond(exchange, 200, "text/html; charset=utf-8", html(headline.get(), rows.get()));
    };
  }

  /** The page for {@code rows}; a pure function so it can be tested without a server. */
  public static String html(String headline, DemoRows rows) {
    StringBuilder page = new StringBuilder();
    page.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"2\">")
        .append("<title>quotaflow demo</title>")
        .append("<style>body{font-family:sans-serif}td,th{padding:2px 10px;text-align:right}")
        .append("td:first-child,th:first-child,td:last-child,th:last-child{text-align:left}</style></head><body>\n")
        .append("<h1>quotaflow demo</h1>\n<p>").append(Markup.escape(headline)).append("</p>\n");
    table(page, DemoTable.COLUMNS, rows.tasks().stream().map(DemoTable::cells).toList());
    if (!rows.pools().isEmpty()) {
      page.append("<h2>pools</h2>\n");
      table(page, DemoTable.POOL_COLUMNS, rows.pools().stream().map(DemoTable::cells).toList());
    }
    page.append("<p><a href=\"/metrics\">/metrics</a> &middot; <a href=\"/health\">/health</a></p>\n")
        .append("</body></html>\n");
    return page.toString();
  }

  private static void table(StringBuilder page, List<String> columns, List<List<String>> rows) {
    page.append("<table>\n<tr>");
    for (String column : columns) {
      page.append("<th>").append(Markup.escape(column)).append("</th>");
    }
    page.append("</tr>\n");
    for (List<String> row : rows) {
      page.append("<tr>");
      for (String cell : row) {
        page.append("<td>").append(Markup.escape(cell)).append("</td>");
      }
      page.append("</tr>\n");
    }
    page.append("</table>\n");
  }
}

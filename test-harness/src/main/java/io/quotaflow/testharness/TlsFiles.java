package io.quotaflow.testharness;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Throwaway TLS material for a test's servers on this machine: a self-signed certificate for
 * {@code localhost} and {@code 127.0.0.1} in a PKCS12 key store, and a PKCS12 trust store holding
 * just that certificate (it is its own CA). Made with the JDK's {@code keytool}, as an operator
 * would; valid for two days.
 *
 * @param keyStore the server's key and certificate
 * @param trustStore what a client needs to trust the server
 * @param password of both stores and the key
 */
public record TlsFiles(Path keyStore, Path trustStore, String password) {

  private static final Duration KEYTOOL_TIMEOUT = Duration.ofSeconds(60);

  /** Writes {@code server.p12} and {@code truststore.p12} into {@code dir}. */
  public static TlsFiles generate(Path dir) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    String password = "test-" + Long.toHexString(System.nanoTime());
    Path keyStore = dir.resolve("server.p12");
    Path trustStore = dir.resolve("truststore.p12");
    Path certificate = dir.resolve("server.pem");
    keytool(dir, "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
        "-dname", "CN=localhost,O=Quotaflow test", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
        "-keystore", keyStore.toString(), "-storetype", "PKCS12", "-storepass", password, "-keypass", password);
    keytool(dir, "-exportcert", "-rfc", "-alias", "server", "-file", certificate.toString(),
        "-keystore", keyStore.toString(), "-storetype", "PKCS12", "-storepass", password);
    keytool(dir, "-importcert", "-noprompt", "-alias", "server", "-file", certificate.toString(),
        "-keystore", trustStore.toString(), "-storetype", "PKCS12", "-storepass", password);
    return new TlsFiles(keyStore, trustStore, password);
  }

  /** An {@link SSLContext} serving the key store's certificate (an HTTPS server's side). */
  public SSLContext serverContext() {
    try (InputStream in = Files.newInputStream(keyStore)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, password.toCharArray());
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, password.toCharArray());
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot load the key store " + keyStore + ": " + e.getMessage(), e);
    }
  }

  private static void keytool(Path dir, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    // keytool is a short JVM: C1 only and the serial collector start it faster on shared cores.
    command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
    command.addAll(List.of(args));
    ExternalCommand.Result result = ExternalCommand.run(dir, KEYTOOL_TIMEOUT, command);
    if (result.exitCode() != 0) {
      throw new IllegalStateException("keytool " + args[0] + " failed: " + result.describe());
    }
  }
}

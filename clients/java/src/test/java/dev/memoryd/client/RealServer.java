package dev.memoryd.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real memoryd server for the tests that need one: {@code memoryd serve} (the repository's
 * .venv/bin/memoryd, or MEMORYD_BIN) as a child process on a free loopback port, with a data
 * directory of its own. {@link #close} stops it with SIGTERM and expects exit code 0.
 */
final class RealServer implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("memoryd listening on [^\\s:]+:(\\d+)");
  private static final long START_TIMEOUT_SECONDS = 120;

  private final Process process;
  private final Path dataDir;
  private final StringBuffer log;
  private final String address;

  private RealServer(Process process, Path dataDir, StringBuffer log, String port) {
    this.process = process;
    this.dataDir = dataDir;
    this.log = log;
    this.address = "127.0.0.1:" + port;
  }

  /** Starts {@code memoryd serve --port 0} and returns once it logs the port it listens on. */
  static RealServer start() throws IOException, InterruptedException {
    String configured = System.getenv("MEMORYD_BIN");
    Path bin = configured != null ? Paths.get(configured) : Paths.get("..", "..", ".venv", "bin", "memoryd");
    if (!Files.isExecutable(bin)) {
      throw new IllegalStateException(
          "no memoryd at " + bin.toAbsolutePath() + ": run 'make install' at the repository root, or set MEMORYD_BIN");
    }
    Path dataDir = Files.createTempDirectory("memoryd-java-");
    ProcessBuilder builder = new ProcessBuilder(bin.toString(), "serve", "--host", "127.0.0.1", "--port", "0",
        "--data-dir", dataDir.toString()).redirectErrorStream(true);
    builder.environment().put("MEMORYD_LOG_LEVEL", "INFO");
    Process process = builder.start();
    CompletableFuture<String> port = new CompletableFuture<>();
    StringBuffer log = new StringBuffer();
    Thread reader = new Thread(() -> read(process, log, port), "memoryd-log");
    reader.setDaemon(true);
    reader.start();
    try {
      return new RealServer(process, dataDir, log, port.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    } catch (ExecutionException | TimeoutException failure) {
      process.destroyForcibly().waitFor();
      deleteTree(dataDir);
      throw new IllegalStateException("memoryd did not start:\n" + log, failure);
    }
  }

  private static void read(Process process, StringBuffer log, CompletableFuture<String> port) {
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        log.append(line).append('\n');
        Matcher match = LISTENING.matcher(line);
        if (match.find()) {
          port.complete(match.group(1));
        }
      }
    } catch (IOException ignored) {
      // The process ended; the exit code tells the rest.
    }
    port.completeExceptionally(new IllegalStateException("memoryd exited before it listened"));
  }

  /** host:port of the server. */
  String address() {
    return address;
  }

  @Override
  public void close() throws InterruptedException, IOException {
    process.destroy(); // SIGTERM: the server drains and exits 0
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
        throw new IllegalStateException("memoryd did not stop within 60 s:\n" + log);
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException("memoryd exited with " + process.exitValue() + ":\n" + log);
      }
    } finally {
      deleteTree(dataDir);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> {
        try {
          Files.delete(path);
        } catch (IOException failure) {
          throw new UncheckedIOException(failure);
        }
      });
    }
  }
}

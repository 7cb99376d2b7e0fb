import { readFileSync } from "node:fs";
import https from "node:https";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/service.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/tls");
const ca = readFileSync(path.join(FIXTURES, "cert.pem"));

/** The handshake outcome of a client limited to one protocol version. */
function handshake(port: number, version: tls.SecureVersion): Promise<{ protocol: string | null } | { error: string }> {
  return new Promise((resolve) => {
    const socket = tls.connect({
      host: "127.0.0.1",
      port,
      servername: "localhost",
      ca,
      minVersion: version,
      maxVersion: version,
      // Lets this client offer TLS 1.0/1.1 at all (OpenSSL 3 refuses them at its default level),
      // so that what is tested is the server's refusal.
      ciphers: "DEFAULT@SECLEVEL=0",
    });
    socket.once("secureConnect", () => {
      resolve({ protocol: socket.getProtocol() });
      socket.end();
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

describe("HTTPS with TLS_CERT_FILE and TLS_KEY_FILE", () => {
  let service: TestService;
  let port: number;

  beforeAll(async () => {
    service = await startTestService({ env: { TLS_CERT_FILE: path.join(FIXTURES, "cert.pem"), TLS_KEY_FILE: path.join(FIXTURES, "key.pem") } });
    await service.app.listen({ host: "127.0.0.1", port: 0 });
    port = (service.app.server.address() as { port: number }).port;
  });
  afterAll(() => service.close());

  it("serves the API over HTTPS", async () => {
    const body = await new Promise<string>((resolve, reject) => {
      https
        .get({ host: "127.0.0.1", port, path: "/healthz", servername: "localhost", ca }, (response) => {
          let data = "";
          response.on("data", (chunk) => (data += chunk));
          response.on("end", () => resolve(data));
        })
        .on("error", reject);
    });
    expect(JSON.parse(body)).toEqual({ status: "ok" });
  });

  it("accepts TLS 1.2 and TLS 1.3 clients", async () => {
    expect(await handshake(port, "TLSv1.2")).toEqual({ protocol: "TLSv1.2" });
    expect(await handshake(port, "TLSv1.3")).toEqual({ protocol: "TLSv1.3" });
  });

  it("uses a TLS 1.1 client that a permissive server would accept (the control)", async () => {
    const permissive = tls.createServer(
      { cert: ca, key: readFileSync(path.join(FIXTURES, "key.pem")), minVersion: "TLSv1", ciphers: "DEFAULT@SECLEVEL=0" },
      (socket) => socket.end(),
    );
    await new Promise<void>((resolve) => permissive.listen(0, "127.0.0.1", resolve));
    try {
      expect(await handshake((permissive.address() as { port: number }).port, "TLSv1.1")).toEqual({ protocol: "TLSv1.1" });
    } finally {
      permissive.close();
    }
  });

  it("refuses that TLS 1.1 client (and TLS 1.0) at the handshake", async () => {
    const refused11 = await handshake(port, "TLSv1.1");
    expect(refused11).toEqual({ error: expect.stringMatching(/TLSV1_ALERT_PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL|WRONG_VERSION/) });
    const refused10 = await handshake(port, "TLSv1");
    expect(refused10).toHaveProperty("error");
  });
});

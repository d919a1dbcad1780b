/**
 * The demo's development tools (`/dev/mailbox`, `/audit`) show sign-in links and who signed in: they are for
 * the person at this machine only. They answer a client that connects from loopback, directly: a request that
 * came through a proxy (it carries forwarding headers) may come from anywhere, even though the proxy itself
 * connects from 127.0.0.1. Everyone else gets a 404, as if the pages did not exist.
 */
import type { RequestEventBase, RequestHandler } from "@builder.io/qwik-city";

/** Headers a reverse proxy adds: their presence means the loopback peer is not the real client. */
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip", "via"];

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped IPv6 spelling. */
export function isLoopbackAddress(ip: string | undefined): boolean {
  if (!ip) return false;
  const address = ip.toLowerCase().replace(/^::ffff:/, "");
  return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

/** True when the request comes straight from this machine. */
export function isLocalDevRequest(ev: Pick<RequestEventBase, "clientConn" | "request">): boolean {
  if (!isLoopbackAddress(ev.clientConn.ip)) return false;
  return !FORWARDING_HEADERS.some((name) => ev.request.headers.has(name));
}

/** `onRequest` of a development tool's route: a 404 for anyone but a local client. */
export const onlyLocalClients: RequestHandler = (ev) => {
  if (!isLocalDevRequest(ev)) throw ev.error(404, "Not found");
};

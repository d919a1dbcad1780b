/**
 * A real DNS server on 127.0.0.1 (npm `dns2`, UDP, a free port) that answers TXT questions from a map the
 * test changes, and a `node:dns` resolver pointed at it: domain proofs are read the way an app reads them.
 * A name with no entry is NXDOMAIN; a name whose entry is empty answers NOERROR with no TXT record.
 */
import { promises as dns } from "node:dns";
import dns2 from "dns2";

export interface TxtServer {
  /** TXT records by lower-case name, each one a list of strings (a long record's 255-byte pieces). */
  records: Map<string, string[][]>;
  /** The `organizations.resolveTxt` of an app that asks this server. */
  resolveTxt: (name: string) => Promise<string[][]>;
  /** When set, every question is answered SERVFAIL (a resolver failure, not "no record"). */
  failing: boolean;
  port: number;
  close(): Promise<void>;
}

export async function startTxtServer(): Promise<TxtServer> {
  const records = new Map<string, string[][]>();
  const state = { failing: false };
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = dns2.Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const found = question ? records.get(question.name.toLowerCase()) : undefined;
      if (state.failing) response.header.rcode = 2;
      else if (!found) response.header.rcode = 3;
      else if (question && question.type === dns2.Packet.TYPE.TXT)
        for (const data of found)
          response.answers.push({ name: question.name, type: dns2.Packet.TYPE.TXT, class: dns2.Packet.CLASS.IN, ttl: 0, data } as never);
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: "127.0.0.1" } } as never);
  const port = (server.addresses() as unknown as { udp: { port: number } }).udp.port;
  const resolver = new dns.Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  return {
    records,
    resolveTxt: (name) => resolver.resolveTxt(name),
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    port,
    close: () => server.close(),
  };
}

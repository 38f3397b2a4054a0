// A load generator in its own process, so the server under test does not share an event loop with
// its clients. Prints the sorted latencies (ms) as JSON.
// Client i sends as user i of the comma-separated tokens (round robin): the API gives each user a
// fair share of REQUEST_MAX_RUNNING_PER_USER requests at once, so N staff are N users, not one.
// node:http with one kept-alive socket per client: this process shares the machine's cores with the
// server under test, and fetch() cost it about as much CPU per request as the API's own work.
import http from 'node:http';

const [url, tokenList, body, concurrency, requests] = process.argv.slice(2);
if (url === undefined || tokenList === undefined || body === undefined)
  throw new Error('usage: load-client.ts <url> <token,token…> <body> <concurrency> <requests>');
const tokens = tokenList.split(',');
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrency) });
const payload = Buffer.from(body);

/** One POST; resolves with its status once the whole response has arrived. */
function post(token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url as string,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': payload.length },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const latencies: number[] = [];
let sent = 0;
await Promise.all(
  Array.from({ length: Number(concurrency) }, async (_, client) => {
    const token = tokens[client % tokens.length] as string;
    while (sent < Number(requests)) {
      sent++;
      const start = performance.now();
      const status = await post(token);
      if (status !== 200) throw new Error(`API answered ${status}`);
      latencies.push(performance.now() - start);
    }
  }),
);
agent.destroy();
console.log(JSON.stringify(latencies.sort((a, b) => a - b)));

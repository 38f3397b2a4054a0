// A load generator in its own process, so the server under test does not share an event loop with
export {};
// its clients. Prints the sorted latencies (ms) as JSON.
// Client i sends as user i of the comma-separated tokens (round robin): the API gives each user a
// fair share of REQUEST_MAX_RUNNING_PER_USER requests at once, so N staff are N users, not one.
const [url, tokenList, body, concurrency, requests] = process.argv.slice(2);
if (url === undefined || tokenList === undefined)
  throw new Error('usage: load-client.ts <url> <token,token…> <body> <concurrency> <requests>');
const tokens = tokenList.split(',');
const latencies: number[] = [];
let sent = 0;
await Promise.all(
  Array.from({ length: Number(concurrency) }, async (_, client) => {
    const headers = { authorization: `Bearer ${tokens[client % tokens.length]}`, 'content-type': 'application/json' };
    while (sent < Number(requests)) {
      sent++;
      const start = performance.now();
      const res = await fetch(url, { method: 'POST', headers, body });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`API answered ${res.status}`);
      latencies.push(performance.now() - start);
    }
  }),
);
console.log(JSON.stringify(latencies.sort((a, b) => a - b)));

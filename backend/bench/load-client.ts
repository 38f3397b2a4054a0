// A load generator in its own process, so the server under test does not share an event loop with
export {};
// its clients. Prints the sorted latencies (ms) as JSON.
const [url, token, body, concurrency, requests] = process.argv.slice(2);
if (url === undefined) throw new Error('usage: load-client.ts <url> <token> <body> <concurrency> <requests>');
const latencies: number[] = [];
let sent = 0;
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
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

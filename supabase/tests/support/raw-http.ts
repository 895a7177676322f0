import { connect } from 'node:net';

/** Sends raw HTTP/1.1 requests on one keep-alive socket and returns everything read back. */
export function rawExchange(port: number, requests: string[], expectedResponses: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`timed out; read so far:\n${data}`));
    }, 10000);
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      if ((data.match(/HTTP\/1\.1 \d{3} /g) ?? []).length >= expectedResponses && /\r\n\r\n[\s\S]*$/.test(data)) {
        // Give a stray body (if any) the chance to arrive before judging the exchange.
        setTimeout(() => {
          clearTimeout(timer);
          socket.end();
          resolve(data);
        }, 150);
      }
    });
    socket.on('error', reject);
    socket.write(requests.join(''));
  });
}

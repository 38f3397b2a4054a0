// Answering with a CSV file: its type, its download name and the stream that writes it.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export { fileTimestamp } from '@app/domain/files';

export function sendCsvFile(reply: FastifyReply, filename: string, stream: Readable) {
  return (
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      // The documented 200 is the CSV text; the type provider cannot see that a stream sends it.
      .send(stream as never)
  );
}

// Reading another server's answer with a size cap: the one bounded body reader of the fetch clients (MCP's --url, compsim fork).

/**
 * The text of `res`, read until it passes `max` bytes; then the body is cancelled and the result
 * is null (the caller says what the cap was). An answer without a body is ''.
 */
export async function cappedText(res: Response, max: number): Promise<string | null> {
  if (!res.body) return '';
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
}

// Secrets adapter on node:crypto: SHA-256 hashes, AES-256-CBC with a derived IV, timingSafeEqual.
import { createCipheriv, createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Secrets } from '../../ports/crypto.js';

const HEX = /^[0-9a-f]*$/;

/**
 * Upstream stores keys AES-256-CBC encrypted as `<ivhex>:<cipherhex>` with the key = SHA-256 of a
 * root secret. The IV here is derived from the plaintext (HMAC) instead of drawn at random, so
 * encryption consumes no randomness and a world replays byte for byte.
 */
export class NodeSecrets implements Secrets {
  private readonly key: Buffer;

  constructor(rootKey: string) {
    this.key = createHash('sha256').update(rootKey).digest();
  }

  /** Recent hashes: every authenticated request hashes its key, mostly the same few keys. */
  private readonly hashes = new Map<string, string>();

  hash(key: string): string {
    let h = this.hashes.get(key);
    if (h === undefined) {
      if (this.hashes.size >= 10_000) this.hashes.clear();
      h = createHash('sha256').update(key).digest('hex');
      this.hashes.set(key, h);
    }
    return h;
  }

  encrypt(plain: string): string {
    const iv = createHmac('sha256', this.key).update(plain).digest().subarray(0, 16);
    const c = createCipheriv('aes-256-cbc', this.key, iv);
    return `${iv.toString('hex')}:${Buffer.concat([c.update(plain, 'utf8'), c.final()]).toString('hex')}`;
  }

  decrypt(enc: string): string {
    const [ivHex, dataHex] = enc.split(':');
    const d = createDecipheriv('aes-256-cbc', this.key, Buffer.from(ivHex ?? '', 'hex'));
    return Buffer.concat([d.update(Buffer.from(dataHex ?? '', 'hex')), d.final()]).toString('utf8');
  }

  equal(a: string, b: string): boolean {
    // Hex hashes (the hot case, once per authenticated request) compare in constant time without
    // buffers: every character is visited whatever differs. Anything else goes through
    // timingSafeEqual on its UTF-8 bytes. The length check itself leaks nothing useful for fixed-format keys.
    if (a.length === b.length && HEX.test(a) && HEX.test(b)) {
      let diff = 0;
      for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
      return diff === 0;
    }
    const x = Buffer.from(a, 'utf8');
    const y = Buffer.from(b, 'utf8');
    return x.length === y.length && timingSafeEqual(x, y);
  }
}

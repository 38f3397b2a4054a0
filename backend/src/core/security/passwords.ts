// argon2id password hashing (OWASP-recommended parameters from @node-rs/argon2's defaults).
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id (a const enum, which isolatedModules cannot import).
const ARGON2ID = 2;

export function hashPassword(plain: string): Promise<string> {
  return hash(plain, { algorithm: ARGON2ID });
}

export async function verifyPassword(hashed: string, plain: string): Promise<boolean> {
  try {
    return await verify(hashed, plain);
  } catch {
    return false;
  }
}

// A hash of a random password, verified against when the email is unknown so that a wrong
// email costs the same time as a wrong password (no user enumeration by timing).
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
}

import { hash, verify } from '@node-rs/argon2';
import { randomInt } from 'node:crypto';

// argon2id with the library's defaults (m=19 MiB, t=2), the OWASP-recommended baseline.
export const hashPassword = (password: string) => hash(password);

export const verifyPassword = async (passwordHash: string, password: string) => {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
};

const passwordAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*';

// SPEC §9: generated admin passwords are 8 characters of letters, digits and !@#$%^&*.
export const generatePassword = (length = 8) =>
  Array.from({ length }, () => passwordAlphabet[randomInt(passwordAlphabet.length)]).join('');

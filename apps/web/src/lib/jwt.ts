type AccessTokenPayload = {
  sid?: string;
  id?: number;
  companyId?: number;
  exp?: number;
};

// Reads the payload only; the signature is the server's business.
export const decodeTokenPayload = (token: string | null | undefined): AccessTokenPayload | null => {
  const part = token?.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return payload && typeof payload === 'object' ? (payload as AccessTokenPayload) : null;
  } catch {
    return null;
  }
};

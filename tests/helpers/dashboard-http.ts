/**
 * next-auth's Credentials sign-in over plain HTTP, as the dashboard's sign-in form drives it: the CSRF
 * token (and its cookie), then the callback with `json=true`. Returns the callback's response.
 */
export async function signInOverHttp(
  baseUrl: string,
  credentials: { email: string; password: string },
  headers: Record<string, string> = {},
): Promise<Response> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers });
  const csrfCookie = csrf.headers.getSetCookie().find((c) => /^(__Host-)?next-auth\.csrf-token=/.test(c));
  if (!csrfCookie) throw new Error(`no CSRF cookie from ${baseUrl}/api/auth/csrf (${csrf.status})`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie.split(";")[0]! },
    body: new URLSearchParams({ ...credentials, csrfToken, json: "true" }),
  });
}

/** The session cookie a sign-in response set, if any ("name=value"). */
export const sessionCookie = (res: Response): string | undefined =>
  res.headers
    .getSetCookie()
    .find((c) => /^(__Secure-)?next-auth\.session-token=/.test(c))
    ?.split(";")[0];

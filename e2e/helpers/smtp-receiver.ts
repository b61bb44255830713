import net from "node:net";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent (headers and body), quoted-printable soft breaks undone. */
  data: string;
}

/**
 * A minimal SMTP server on 127.0.0.1 (no TLS, no auth): enough for nodemailer to deliver to. Recipients whose
 * address starts with "bounce" are refused with 550, so a failed send can be shown.
 */
export async function startSmtpReceiver(): Promise<{ port: number; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.setEncoding("utf8");
    let buffer = "";
    let inData = false;
    let mail: ReceivedMail = { from: "", to: [], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 test-receiver ESMTP");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          mail.data = buffer.slice(0, end).replace(/=\r\n/g, "").replace(/^\.\./gm, ".");
          buffer = buffer.slice(end + 5);
          inData = false;
          mails.push(mail);
          mail = { from: "", to: [], data: "" };
          reply("250 OK queued");
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 test-receiver");
        else if (verb === "MAIL") {
          mail.from = line.slice(10).trim();
          reply("250 OK");
        } else if (verb === "RCPT") {
          const to = line.slice(8).trim().replace(/[<>]/g, "");
          if (to.startsWith("bounce")) reply("550 5.1.1 No such mailbox here");
          else {
            mail.to.push(to);
            reply("250 OK");
          }
        } else if (verb === "DATA") {
          inData = true;
          reply("354 End data with <CR><LF>.<CR><LF>");
        } else if (verb === "QUIT") {
          reply("221 Bye");
          socket.end();
        } else if (verb === "RSET") {
          mail = { from: "", to: [], data: "" };
          reply("250 OK");
        } else reply("250 OK");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

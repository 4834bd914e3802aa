//! A minimal SMTP server for tests and benchmarks: accepts every message (counting them and
//! keeping their envelopes), except for recipients it is told to refuse with a 5xx or a 4xx.
//! It speaks just enough of RFC 5321 for lettre: EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT.
//! Used where maildev cannot help: refusing one recipient, and sinking thousands of emails a second.

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{Arc, Mutex},
};

use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::{TcpListener, TcpStream},
};

/// One accepted message.
#[derive(Debug, Clone)]
pub struct Received {
    pub from: String,
    pub to: Vec<String>,
    pub data: String,
}

#[derive(Default)]
struct Shared {
    received: Vec<Received>,
    /// Recipient → the reply to its RCPT (e.g. "550 5.1.1 no such user").
    refuse: HashMap<String, String>,
}

#[derive(Clone)]
pub struct SmtpSink {
    pub address: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    /// Keep the messages (tests) or only count them (benchmarks).
    keep: bool,
    count: Arc<std::sync::atomic::AtomicU64>,
}

impl SmtpSink {
    /// Starts a sink on a free loopback port.
    pub async fn start(keep: bool) -> std::io::Result<SmtpSink> {
        SmtpSink::start_on("127.0.0.1:0", keep).await
    }

    pub async fn start_on(address: &str, keep: bool) -> std::io::Result<SmtpSink> {
        let listener = TcpListener::bind(address).await?;
        let sink = SmtpSink { address: listener.local_addr()?, shared: Arc::default(), keep, count: Arc::default() };
        let server = sink.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let session = server.clone();
                tokio::spawn(async move {
                    let _ = session.serve(stream).await;
                });
            }
        });
        Ok(sink)
    }

    /// `smtp://127.0.0.1:PORT`, for INSIGHTS_SMTP_URL.
    pub fn url(&self) -> String {
        format!("smtp://{}", self.address)
    }

    /// Answers RCPT TO `recipient` with `reply` (e.g. "550 5.1.1 mailbox unavailable").
    pub fn refuse(&self, recipient: &str, reply: &str) {
        self.shared.lock().unwrap().refuse.insert(recipient.to_lowercase(), reply.to_owned());
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.lock().unwrap().received.clone()
    }

    pub fn count(&self) -> u64 {
        self.count.load(std::sync::atomic::Ordering::Relaxed)
    }

    async fn serve(&self, stream: TcpStream) -> std::io::Result<()> {
        // Each reply in one write, sent at once: no 40 ms delayed-ACK stall per command.
        stream.set_nodelay(true)?;
        let (read, mut write) = stream.into_split();
        let mut lines = BufReader::new(read);
        write.write_all(b"220 sink ESMTP\r\n").await?;
        let (mut from, mut to) = (String::new(), Vec::new());
        let mut line = String::new();
        loop {
            line.clear();
            if lines.read_line(&mut line).await? == 0 {
                return Ok(());
            }
            let command = line.trim_end().to_owned();
            let verb = command.split([' ', ':']).next().unwrap_or("").to_ascii_uppercase();
            let reply: String = match verb.as_str() {
                "EHLO" => "250-sink\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 PIPELINING".into(),
                "HELO" | "NOOP" => "250 OK".into(),
                "RSET" => {
                    (from, to) = (String::new(), Vec::new());
                    "250 OK".into()
                }
                "MAIL" => {
                    from = address_of(&command);
                    to.clear();
                    "250 OK".into()
                }
                "RCPT" => {
                    let recipient = address_of(&command);
                    let refused = self.shared.lock().unwrap().refuse.get(&recipient.to_lowercase()).cloned();
                    match refused {
                        Some(reply) => reply,
                        None => {
                            to.push(recipient);
                            "250 OK".into()
                        }
                    }
                }
                "DATA" => {
                    write.write_all(b"354 go ahead\r\n").await?;
                    let mut data = String::new();
                    loop {
                        line.clear();
                        if lines.read_line(&mut line).await? == 0 {
                            return Ok(());
                        }
                        if line == ".\r\n" || line == ".\n" {
                            break;
                        }
                        if self.keep {
                            data.push_str(line.strip_prefix('.').unwrap_or(&line));
                        }
                    }
                    self.count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if self.keep {
                        let message = Received { from: from.clone(), to: to.clone(), data };
                        self.shared.lock().unwrap().received.push(message);
                    }
                    "250 OK queued".into()
                }
                "QUIT" => {
                    write.write_all(b"221 bye\r\n").await?;
                    return Ok(());
                }
                _ => "502 command not implemented".into(),
            };
            write.write_all(format!("{reply}\r\n").as_bytes()).await?;
        }
    }
}

/// The address in `MAIL FROM:<a@b>` or `RCPT TO:<a@b>`.
fn address_of(command: &str) -> String {
    match (command.find('<'), command.find('>')) {
        (Some(start), Some(end)) if start < end => command[start + 1..end].to_owned(),
        _ => command.split(':').nth(1).unwrap_or("").trim().to_owned(),
    }
}

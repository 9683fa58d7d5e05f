/** Help texts, kept apart from the commands so --help loads none of them. */

export const STATUS_USAGE = `Usage: shop-inbox status [--base-url URL] [--key-file PATH]

Checks the key and prints the shop's overview, billing and texting status, what the key may
do (write, read-only, or unknown and why), and what this key's outbox holds (texts waiting to
be sent, damage, damaged files kept aside). It only reads, but for the one question about the
key's mode: a reply draft asked for a review that cannot exist, which changes nothing.
The shop and the key are found as the inbox finds them: the base URL from --base-url,
SHOP_API_BASE_URL or the saved login; the key from --key-file, SHOP_API_KEY or the saved login.
Exit status: 0 when the shop answered; 1 when it refused or could not be reached, or when the
settings are missing or wrong; 2 on a usage error.
`;

export const SIM_USAGE = `Usage: shop-inbox sim [options]

Serves the built-in demo shop: a simulator of the shop API v1 on a real HTTP port.
The first line on stdout is JSON: {"base_url": …, "tokens": {write, read, other_shop,
no_subscription, no_number, texting_inactive}}. Stops on Ctrl-C or SIGTERM.

Options:
  --host HOST              address to listen on (default 127.0.0.1)
  --port N                 port; 0 picks a free one (default 0)
  --seed N                 seed of the demo data (default 1)
  --live                   new texts, missed calls, reviews and actions keep arriving
  --live-interval MS       time between live events (default 4000)
  --rate-limit N           requests per minute per token (default 120)
Fault injection:
  --latency MS             added delay before every /v1 answer
  --error-rate R           share 0..1 of requests answered 500/502/503/504
  --hang-rate R            share of requests never answered
  --reset-rate R           share of connections reset without an answer
  --malformed-rate R       share of answers that are not valid JSON
  --burst-429 N            answer the first N requests 429 rate_limited
  --burst-retry-after S    Retry-After of those 429s (default 5)
`;

export const TUI_USAGE = `Inbox options (shop-inbox [options]):
  --demo                 try it on the built-in demo shop (a simulator in this process)
  --base-url URL         the shop's API root (default: SHOP_API_BASE_URL, then the login config)
  --key-file PATH        read the key from a file only you can read (chmod 600)
  --read-only            never write: sending, drafting and approving are off
  --wallboard            the monitoring screen for the room: big counts, oldest missed call,
                         newest texts, how fresh the data is (read-only; q quits)
  --theme auto|dark|light  colours for a dark or light background (auto follows COLORFGBG);
                         NO_COLOR=1 removes every colour
  --max-rpm N            requests per minute for this process (default 30; the
                         shop's 120 per minute are shared by every terminal on its key)
  --no-mouse             leave the mouse to the terminal (text selection); also "mouse": false
                         in config.json. Keys can be remapped there: "keys": {"compose": "m"}
The key comes from --key-file, SHOP_API_KEY, or \`shop-inbox login\`; never from a flag.
`;

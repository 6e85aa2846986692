// The REST proxy in front of Discord for every process of the Umtali bot (docs/scale.md).
//
// Discord's rate limits count per bot token, not per process: each process alone cannot keep
// them. Every process sends its REST calls here (UMTALI_DISCORD_API); @discordjs/rest, the
// discord.js team's rate limiter, holds each call until Discord's limits allow it (the global
// one, GLOBAL_PER_SECOND, and each route's, learnt from Discord's headers) and retries a 429.
//
// Settings (environment): PORT (8080; 0 picks a free one), HOST (127.0.0.1), DISCORD_API
// (https://discord.com/api: the API without its version), GLOBAL_PER_SECOND (50, Discord's),
// TRY_MS (10000; shorter for tests, below); empty is the default, and a value it cannot use
// stops it with one sentence (exit status 2).
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import process from 'node:process';
import { populateErrorResponse, populateSuccessfulResponse } from '@discordjs/proxy';
import { REST } from '@discordjs/rest';

// One setting: its default when unset or empty (an empty line of an env file, as the bot reads
// its own), else what `read` makes of it; a value it cannot use stops the proxy at once with one
// sentence, exit status 2, as the bot's own settings do. (Number.parseInt took PORT=80x for 80,
// and GLOBAL_PER_SECOND=fifty for NaN: no global limit at all; HOST= listened everywhere.)
function setting(name, fallback, read, must) {
	const text = (process.env[name] ?? '').trim();
	if (text === '') return fallback;
	const value = read(text);
	if (value === undefined) {
		console.error(`error: ${name} must be ${must}, or empty, not '${text}'.`);
		process.exit(2);
	}
	return value;
}

function wholeNumber(low, high) {
	return (text) => (/^[0-9]+$/.test(text) && Number(text) >= low && Number(text) <= high
		? Number(text) : undefined);
}

function discordApi(text) {
	let url;
	try {
		url = new URL(text);
	} catch {
		return undefined;
	}
	const path = url.pathname.replace(/\/+$/, '');
	if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash
		|| /\/v[0-9]+$/.test(path)) return undefined;
	return url.origin + path;
}

const port = setting('PORT', 8080, wholeNumber(0, 65535), 'a port from 0 to 65535 (0: a free one)');
const host = setting('HOST', '127.0.0.1', (text) => text, 'an address');
const api = setting('DISCORD_API', 'https://discord.com/api', discordApi,
	"the URL of Discord's API without its version, such as https://discord.com/api");
const perSecond = setting('GLOBAL_PER_SECOND', 50, wholeNumber(1, 1_000_000),
	"the calls a second Discord allows the bot's token (a whole number, 50 for most bots)");

// An interaction's token, in the path of its answer (/interactions/<id>/<token>/callback) and of
// its webhook (/webhooks/<id>/<token>/...): whoever reads it may post as the bot in that channel
// for 15 minutes. Kept out of the log (the bot's own Authorization is never written there).
// A call with one is an interaction's answer: sent by `answers`, below.
const TOKEN_IN_PATH = /\/(?:interactions|webhooks)\/[^/]+\/([^/]+)/;

function withoutToken(path, text) {
	const found = TOKEN_IN_PATH.exec(path);
	return found ? text.replaceAll(found[1], ':token') : text;
}

// Discord not answering (its address taking connections, a network dropping packets): each
// try given up after TRY_MS, and tried once more, so that the 502 saying Discord is out of
// reach comes within 20 s, before the bot gives the call up (REST_TIMEOUT, 30 s:
// cogs/umtali/rest_timeout.py) and its clocks stand still (cogs/umtali/rest_outage.py).
// @discordjs/rest's own, four tries of 15 s, took a minute: the bot hung up first, heard
// nothing, and its clocks ran on. Shorter only for a test (tests/test_rest_proxy_faults.py,
// which scales the bot's wait alike); never longer, which would let the bot hang up first.
const TRY_MS = setting('TRY_MS', 10_000, wholeNumber(1, 10_000),
	'the milliseconds each try of a call waits for Discord, from 1 to 10000 (the default)');
const TRIES_AGAIN = 1;
// A call over a limit waits here. (@discordjs/proxy-container answers it 429 at once instead,
// with no body: discord.py takes such a 429 for a Cloudflare ban and gives the call up.)
const rest = new REST({ api, globalRequestsPerSecond: perSecond, timeout: TRY_MS,
	retries: TRIES_AGAIN });
// Discord does not count an interaction's answers against the bot's global limit: its
// callback (which @discordjs/rest spares too), nor the calls through its webhook, a follow-up
// or an edit of the answer (which it would hold behind the bot's other calls). Those go by a
// limiter of their own, each route's limit kept, no global one.
const answers = new REST({ api, globalRequestsPerSecond: Number.POSITIVE_INFINITY,
	timeout: TRY_MS, retries: TRIES_AGAIN });

// @discordjs/proxy's proxyRequests(), except that the call's body is read whole first:
// proxyRequests streams it through once, so a call retried after a 429 went out empty.
async function forward(req, res) {
	let url;
	try {
		url = new URL(req.url, 'http://proxy');
	} catch {
		// Not a URL (an absolute one with port 99999, say): refused. Thrown, it would end the
		// proxy, and every call of every process of the bot with it.
		res.statusCode = 400;
		res.end();
		return;
	}
	// A caller that hangs up (discord.py gives a call up after 30 s, and sends it again later)
	// takes its call off the queue, or stops it on its way: held here past that (a 429, the
	// global limit), sent all the same, it would spend the limit that the calls still awaited
	// need, a click's answer among them (which Discord takes only within 3 s).
	const gone = new AbortController();
	res.on('close', () => {
		if (!res.writableFinished) gone.abort();
	});
	const headers = { 'Content-Type': req.headers['content-type'] };
	for (const name of ['authorization', 'x-audit-log-reason']) {
		if (req.headers[name]) headers[name] = req.headers[name];
	}
	try {
		const chunks = [];
		for await (const chunk of req) chunks.push(chunk);
		const body = Buffer.concat(chunks);
		const limiter = TOKEN_IN_PATH.test(url.pathname) ? answers : rest;
		const answer = await limiter.queueRequest({
			fullRoute: url.pathname.replace(/^\/api(\/v\d+)?/, ''),
			method: req.method,
			query: url.searchParams,
			body: body.length > 0 ? body : undefined,
			passThroughBody: true,
			// The caller's own Authorization header goes through as it is.
			auth: false,
			headers,
			signal: gone.signal,
		});
		await populateSuccessfulResponse(res, answer);
	} catch (error) {
		if (gone.signal.aborted) {
			// Given up by its caller: nobody to answer, and nothing wrong.
		} else if ((error instanceof Error && error.name === 'AbortError')
			|| !populateErrorResponse(res, error)) {
			// Discord unreachable, say, or not answering its last try within TRY_MS (which
			// @discordjs/proxy would answer 504, unmarked): 502, which discord.py retries.
			console.error(withoutToken(url.pathname, `${req.method} ${url.pathname}: ${error}`));
			res.statusCode = 502;
			// Told apart from Discord's own 5xx, which are one call's: the bot's clocks stand
			// still while it cannot reach Discord at all (cogs/umtali/rest_outage.py).
			res.setHeader('X-Umtali-Proxy', 'discord-unreachable');
		}
	} finally {
		res.end();
	}
}

const server = createServer((req, res) => void forward(req, res));

// Its port taken (a proxy already running, another server), or HOST no address of this
// machine: one sentence, not a trace.
server.on('error', (error) => {
	const why = error.code === 'EADDRINUSE'
		? 'another process has that port: stop it, or set PORT (and UMTALI_DISCORD_API to match)'
		: 'check HOST and PORT';
	const code = error.code ?? error.message;
	console.error(`error: could not listen on ${host}:${port} (${code}): ${why}.`);
	process.exit(2);
});

server.listen(port, host, () => {
	const { port: bound } = server.address();
	console.log(`Listening on http://${host}:${bound}/api/v10, forwarding to ${api}`);
});

// Stop taking calls, let those under way end (for a few seconds at most), then exit.
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		server.close(() => process.exit(0));
		server.closeIdleConnections();
		setTimeout(() => process.exit(0), 5000).unref();
	});
}

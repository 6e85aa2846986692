// The REST proxy in front of Discord for every process of the Umtali bot (docs/scale.md).
//
// Discord's rate limits count per bot token, not per process: each process alone cannot keep
// them. Every process sends its REST calls here (UMTALI_DISCORD_API); @discordjs/rest, the
// discord.js team's rate limiter, holds each call until Discord's limits allow it (the global
// one, GLOBAL_PER_SECOND, and each route's, learnt from Discord's headers) and retries a 429.
//
// Settings (environment): PORT (8080; 0 picks a free one), HOST (127.0.0.1), DISCORD_API
// (https://discord.com/api: the API without its version), GLOBAL_PER_SECOND (50, Discord's).
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import process from 'node:process';
import { populateErrorResponse, populateSuccessfulResponse } from '@discordjs/proxy';
import { REST } from '@discordjs/rest';

const port = Number.parseInt(process.env.PORT ?? '8080', 10);
const host = process.env.HOST ?? '127.0.0.1';
const api = process.env.DISCORD_API ?? 'https://discord.com/api';
const perSecond = Number.parseInt(process.env.GLOBAL_PER_SECOND ?? '50', 10);

// A call over a limit waits here. (@discordjs/proxy-container answers it 429 at once instead,
// with no body: discord.py takes such a 429 for a Cloudflare ban and gives the call up.)
const rest = new REST({ api, globalRequestsPerSecond: perSecond });

// @discordjs/proxy's proxyRequests(), except that the call's body is read whole first:
// proxyRequests streams it through once, so a call retried after a 429 went out empty.
async function forward(req, res) {
	const url = new URL(req.url, 'http://proxy');
	const headers = { 'Content-Type': req.headers['content-type'] };
	for (const name of ['authorization', 'x-audit-log-reason']) {
		if (req.headers[name]) headers[name] = req.headers[name];
	}
	try {
		const chunks = [];
		for await (const chunk of req) chunks.push(chunk);
		const body = Buffer.concat(chunks);
		const answer = await rest.queueRequest({
			fullRoute: url.pathname.replace(/^\/api(\/v\d+)?/, ''),
			method: req.method,
			query: url.searchParams,
			body: body.length > 0 ? body : undefined,
			passThroughBody: true,
			// The caller's own Authorization header goes through as it is.
			auth: false,
			headers,
		});
		await populateSuccessfulResponse(res, answer);
	} catch (error) {
		if (!populateErrorResponse(res, error)) {
			// Discord unreachable, say: 502, which discord.py retries.
			console.error(`${req.method} ${url.pathname}: ${error}`);
			res.statusCode = 502;
		}
	} finally {
		res.end();
	}
}

const server = createServer((req, res) => void forward(req, res));

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

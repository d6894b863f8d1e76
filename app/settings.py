"""Server settings, from the environment (or a ``.env`` file)."""

from __future__ import annotations

from typing import Literal

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    #: SQLAlchemy URL; the default SQLite file lives in ./data (created on demand).
    database_url: str = "sqlite:///./data/cardroom.db"
    #: Redis URL for cross-process fan-out (issue 5); unset: everything stays in-process.
    redis_url: str | None = None
    #: The pub/sub channel (processes of one deployment share it).
    redis_channel: str = "cardroom:events"
    #: Seconds a bot "thinks" before acting (tests: 0).
    bot_delay: float = 0.7
    #: Seconds a deal's summary stays on the table before the next deal, unless every person at
    #: the table asks for the next deal sooner (tests: 0).
    deal_pause: float = 15.0
    #: Seconds the next deal waits at most once a person asked for time to read the summary
    #: (``wait``), counted from their asking; sooner if every person asks for it.
    deal_wait: float = 120.0
    #: Seconds a person must have been away before a bot may be handed their seat: a phone's
    #: blip had let an opponent give it to the random bot at once, which bid for them (tests: 0).
    standin_grace: float = 20.0
    #: Seconds into a person's turn before their connection is probed (a ping it must answer
    #: within ``probe_timeout``), so that a link that died is found while the table waits for
    #: it rather than at the next keepalive, 35-45 s on (0: no probe).
    probe_after: float = 10.0
    probe_timeout: float = 5.0
    #: Largest WebSocket text frame the protocol accepts (bytes); larger gets ``too_large``.
    max_message: int = 4096
    #: Hard frame limit given to uvicorn: larger frames close the connection (1009).
    ws_max_size: int = 65536
    #: The address people open, e.g. https://cards.example.org: invite links are built from it
    #: (unset: from the address the host opened).
    public_url: str | None = None
    #: Addresses of the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed
    #: (comma-separated addresses or networks, ``*`` for any): the client's address and the
    #: scheme (https, wss) then come from them. Set it to the proxy's address only, never to an
    #: address clients reach directly (docs/security.md).
    forwarded_allow_ips: str = "127.0.0.1,::1"
    #: The address ``cardroom serve`` listens on (its ``--host``): on the loopback only, the
    #: pages say that an invite link opens on this machine only.
    host: str = "127.0.0.1"
    #: Seconds a WebSocket has to say hello before it is closed (4408): one that says nothing
    #: holds a place for nothing.
    hello_within: float = 10.0
    #: Messages per second a connection may send (token bucket, burst = 2x).
    rate: float = 20.0
    #: Default turn timer for new rooms in seconds (None: off); a room may set its own.
    turn_timer: float | None = None
    #: The strong bot's think time per decision in new rooms, seconds (a room may set its own,
    #: from THINK_TIME_MIN to THINK_TIME_MAX, never beyond its turn timer).
    think_time: float = 1.0
    think_time_min: float = 0.1
    think_time_max: float = 10.0
    #: Processes the strong bots think in (app/rooms/thinking.py), made on first use; 0: one per
    #: core. Their priority is lowered by THINK_NICE so that the tables' own work comes first.
    think_workers: int = 0
    think_nice: int = 5
    #: Post-match analysis (docs/analysis.md#server): every match that finishes is analysed
    #: when true (else only when someone asks on its page); play-outs per choice (unset: the
    #: game's default quality); each process runs one analysis at a time in a process of its
    #: own at this lower priority, looks for work every ANALYSIS_POLL seconds and renews its
    #: hold on the one it runs; another process takes an analysis over whose hold is older than
    #: ANALYSIS_STALE seconds (a restart, a crash). ANALYSIS=false: this process runs none.
    analysis: bool = True
    analyse_finished: bool = False
    analysis_simulations: int | None = None
    analysis_nice: int = 10
    analysis_poll: float = 5.0
    analysis_stale: float = 120.0
    #: Chat line length limit.
    chat_max: int = 300
    #: Seconds after which a room nobody is connected to and nothing drives is dropped from
    #: memory (rebuilt from the database on next use); 0: never.
    room_idle: float = 600.0
    #: Level of the structured room log (JSON lines on standard error under ``cardroom serve``).
    log_level: str = "INFO"
    #: permessage-deflate on the WebSocket: off by default (it cost more CPU per message than
    #: the whole game logic in the load benchmark); turn it on for slow client links.
    ws_deflate: bool = False
    #: SQLite only: NORMAL (every commit reaches the operating system before anyone is told,
    #: and the disk at the WAL checkpoint a second later: a crash or restart of the server loses
    #: nothing, a power cut or a crash of the machine may lose the last second) or FULL (every
    #: commit also reaches the disk first, at the cost of an fsync on the event loop per group
    #: commit: every table waits whenever the disk is slow; docs/deploy.md#durability-on-sqlite).
    sqlite_synchronous: Literal["FULL", "NORMAL"] = "NORMAL"
    #: Seconds between the presence heartbeats each process sends through Redis.
    presence_heartbeat: float = 5.0

    # -- limits per client address (docs/security.md#limits) ------------------------------------
    # Rates are in the ``limits`` library's notation ("15/minute;60/hour"); an empty value turns
    # that limit off. With REDIS_URL they are counted in Redis, shared by every process.
    #: False turns every limit below off (benchmarks and tests that play many tables at once).
    limits: bool = True
    #: Rooms one address may create.
    limit_rooms: str = "15/minute;60/hour"
    #: Seats one address may take (POST /api/rooms/{code}/join).
    limit_joins: str = "30/minute;200/hour"
    #: WebSocket connections one address may open (reconnections included).
    limit_sockets: str = "60/minute;600/hour"
    #: Names one address may claim or take on (POST and PATCH /api/me: each claim is a player
    #: stored, listed with the others).
    limit_names: str = "6/minute;30/hour"
    #: Post-match analyses one address may ask for (each is minutes of a core's work).
    limit_analyses: str = "10/hour;30/day"
    #: Chat lines one seat may say, whatever the number of its connections.
    limit_chat: str = "10/10 seconds;120/hour"
    #: WebSocket connections open at once from one address, and to one room (each process).
    limit_open_sockets: int = 40
    limit_room_sockets: int = 60
    #: Rooms of bots alone whose match may run at once (0: none may be created).
    bot_tables: int = 10
    #: Seconds a room plays on after the last person watching it left, when no person is
    #: connected to a seat (its bots, stand-ins and turn timer play for nobody): then it pauses
    #: until someone opens it again.
    bot_table_idle: float = 120.0

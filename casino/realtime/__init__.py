"""Live feeds: the relay pushes committed events from the log to channel-layer groups;
WebSocket consumers send a snapshot, then every event after it, with no gap or duplicate.

See ``docs/realtime.md`` for the message format.
"""

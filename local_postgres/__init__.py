"""PostgreSQL on this machine for the tests and the benchmarks, not for the bot: a throwaway server (`server`) and
a proxy that delays its packets as a network would (`delay_proxy`)."""

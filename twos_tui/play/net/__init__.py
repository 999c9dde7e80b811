"""Play at a table hosted on another computer: the protocol (:mod:`.protocol`), the
host's server (:mod:`.server`), the host's own seat view (:mod:`.host_view`) and a
remote seat's view and the bot client (:mod:`.client`). See ``docs/protocol.md``."""

"""Terminal adapters: watching bots play (`skyjo play`)."""

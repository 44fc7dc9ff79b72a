"""Pure rules of waiting lists (no Django): :mod:`waitlist.domain.lists`."""

"""Show poker (house document 001, catalogue section 19): its own hand aggregate, not a
pokerkit game. :mod:`.declarations` parses and checks declarations, :mod:`.game` plays a
hand, :mod:`.penalties` and :mod:`.levels` hold its penalties and tournament levels."""

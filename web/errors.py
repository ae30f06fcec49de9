"""Why the pages cannot be served: imported by the shell's start-up without loading the web app."""


class WebUnavailable(Exception):
    """WEB_PORT cannot be listened on (taken, or a host this machine does not have); one sentence."""

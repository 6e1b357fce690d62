"""Log filters of the console handler."""

import logging

from registry.masking import mask_text


class MaskSecretsFilter(logging.Filter):
    """Mask URLs with credentials in every log line, whoever logs it: web3 and urllib3 write
    full RPC URLs (keys included) at DEBUG."""

    def filter(self, record):
        message = record.getMessage()
        masked = mask_text(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True

"""add_person USERNAME [--email E] [--admin] [--password-env VAR] -> {username}"""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import CommandError

from stores.errors import ConsoleError
from stores.management.base import JsonCommand
from stores.services.registry import person_add


class Command(JsonCommand):
    help = (
        "Add a person who uses the console. --admin makes a console admin (superuser and staff). "
        "The password is read from the environment variable --password-env names, never from the "
        "command line; without it the account has no password until an admin sets one."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument("--admin", action="store_true", help="Make a console admin (superuser and staff).")
        parser.add_argument("--password-env", metavar="VAR", default=None, help="The environment variable holding the password.")

    def run(self, **options: Any) -> dict[str, Any]:
        password = None
        var = options["password_env"]
        if var is not None:
            password = os.environ.get(var)
            if not password:
                raise CommandError(
                    f"The environment variable {var} is not set or is empty; set it to the password, "
                    f"e.g. `read -s {var} && export {var}`, then run again."
                )
        try:
            user = person_add(
                username=options["username"], email=options["email"], admin=options["admin"], password=password
            )
        except ConsoleError as exc:
            raise CommandError(exc.message) from exc
        return {"username": user.get_username()}

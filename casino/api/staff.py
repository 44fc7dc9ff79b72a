"""Console sessions, staff accounts and dealer-tablet registration.

* ``/auth/``: a staff console gets a CSRF token (``GET csrf/``), logs in with username and
  password (``POST login/``: a Django session cookie), asks who it is (``GET me/``) and
  logs out. Login checks the CSRF token too (no login CSRF), and every unsafe request of
  a logged-in session must carry ``X-CSRFToken`` (DRF ``SessionAuthentication``). Login
  rotates the session key and the CSRF token; the answer carries the new token.
* ``/staff/`` (admin): accounts with a role (casino.models.StaffProfile). Never
  ``dealer``: dealers work through table-bound tablets.
* ``/devices/`` (floor): register a dealer tablet bound to one table -- its token is in
  that answer only -- and revoke it (refused at once by this process, everywhere within
  ``DEVICE_TOKEN_CACHE_SECONDS``).

Writes carry ``Idempotency-Key`` like every other write (a retried registration does not
make a second tablet), except login, which is never replayed: each call checks the
password and opens a fresh session. A replayed registration answers without the token,
and no password or token is kept in the idempotency records (the staff writes hash the
request without the password). Who may call what: casino.permissions.
"""

from collections.abc import Callable
from typing import Any

from django.contrib.auth import authenticate, get_user_model, login, logout
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.middleware.csrf import get_token
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino import clock, table_lookup
from casino.api.errors import ErrorSerializer
from casino.api.serializers import (
    MAX_ID,
    PasswordField,
    RequestSerializer,
    SafeCharField,
    StrictBooleanField,
    StrictIntegerField,
)
from casino.api.throttle import refuse_if_locked_out
from casino.api.views import (
    IDEMPOTENCY_KEY,
    command_context,
    idempotency_key,
    refuse_if_match,
    run_write,
)
from casino.auth import DeviceTokenAuthentication, forget_device
from casino.errors import DomainError, NotFound
from casino.eventstore import commands
from casino.models import Device, Role, StaffProfile
from casino.permissions import role_of
from casino.realtime import revocation

User = get_user_model()

PRINCIPAL_KINDS = ["user", "device"]

ERRORS = {400: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer, 422: ErrorSerializer}

LOGIN_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Accepted like on every write, but a login is never replayed: each call "
    "checks the password and opens a new session, so a retry is safe without it.",
)


def _refusal(code: str, detail: str, http_status: int, **context: Any) -> DomainError:
    error = DomainError(code, detail, **context)
    error.status = http_status
    return error


def _run_idempotent(
    request: Request,
    body: Callable[[], Any],
    *,
    identity: dict[str, Any],
    status_code: int = status.HTTP_200_OK,
) -> Response:
    """:func:`casino.api.views.run_write` with a fingerprint of ``identity`` instead of the
    whole body, so that a password never reaches the idempotency records. Staff accounts
    are no event stream: an ``If-Match`` is refused (:func:`refuse_if_match`)."""
    refuse_if_match(request)
    key = idempotency_key(request)
    ctx = command_context(request)
    outcome = commands.run_command(
        body,
        ctx=ctx,
        command_id=key,
        fingerprint=commands.fingerprint(request.method, request.path, identity, ctx.actor),
        status_code=status_code,
    )
    response = Response(outcome.result, status=outcome.status_code)
    if outcome.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


# --- session login ---------------------------------------------------------------------------


class PrincipalSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=PRINCIPAL_KINDS)
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="Username, or the device's name.")
    role = serializers.ChoiceField(choices=Role.choices, allow_null=True)
    table_id = serializers.IntegerField(
        allow_null=True, help_text="The table a dealer tablet is bound to."
    )


class LoginRequest(RequestSerializer):
    username = SafeCharField(max_length=150)
    password = PasswordField()


class LoginResponse(PrincipalSerializer):
    csrf_token = serializers.CharField(help_text="Send as X-CSRFToken on unsafe requests.")


class CsrfResponse(serializers.Serializer):
    csrf_token = serializers.CharField(help_text="Send as X-CSRFToken (also set as a cookie).")


class LogoutResponse(serializers.Serializer):
    logged_out = StrictBooleanField()


def principal_payload(principal: Any) -> dict[str, Any]:
    """Who the caller is, as :class:`PrincipalSerializer` shows it (never a token)."""
    role = role_of(principal)
    if isinstance(principal, Device):
        return {
            "kind": "device",
            "id": principal.pk,
            "name": principal.name,
            "role": role,
            "table_id": principal.table_id,
        }
    return {
        "kind": "user",
        "id": principal.pk,
        "name": principal.get_username(),
        "role": role,
        "table_id": None,
    }


class CsrfView(APIView):
    @extend_schema(operation_id="auth_csrf", responses={200: CsrfResponse})
    def get(self, request: Request) -> Response:
        """A CSRF token for the console (also set as the ``csrftoken`` cookie)."""
        return Response({"csrf_token": get_token(request._request)})


class LoginView(APIView):
    @extend_schema(
        operation_id="auth_login",
        request=LoginRequest,
        responses={
            200: LoginResponse,
            400: ErrorSerializer,
            422: ErrorSerializer,
            429: ErrorSerializer,
        },
        parameters=[LOGIN_KEY],
    )
    def post(self, request: Request) -> Response:
        """Log a staff member in: a session cookie for the console. Needs the CSRF token
        (``GET /auth/csrf/``). Wrong credentials answer 400 ``invalid_credentials``; an
        account without a staff role 422 ``no_staff_role``. After repeated failures for the
        username or from the address, 429 ``too_many_login_failures`` (casino.api.throttle)."""
        if not isinstance(request.successful_authenticator, DeviceTokenAuthentication):
            # No login CSRF: a cross-site form must not log a console into another account.
            SessionAuthentication().enforce_csrf(request)
        incoming = LoginRequest(data=request.data)
        incoming.is_valid(raise_exception=True)
        refuse_if_locked_out(request._request, incoming.validated_data["username"])
        user = authenticate(
            request._request,
            username=incoming.validated_data["username"],
            password=incoming.validated_data["password"],
        )
        if user is None:
            raise _refusal("invalid_credentials", "Wrong username or password.", 400)
        if role_of(user) is None:
            raise _refusal("no_staff_role", "This account has no staff role.", 422)
        login(request._request, user)
        request.user = user
        return Response({**principal_payload(user), "csrf_token": get_token(request._request)})


class LogoutView(APIView):
    @extend_schema(
        operation_id="auth_logout",
        request=None,
        responses={200: LogoutResponse, 400: ErrorSerializer, 422: ErrorSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    def post(self, request: Request) -> Response:
        """End the console's session (needs the CSRF token, like every session write)."""

        def body() -> dict[str, bool]:
            if not isinstance(request.user, Device):  # a device has no session to end
                key = request.session.session_key
                logout(request._request)
                if key:  # the session's open sockets go with it
                    revocation.close_sockets(revocation.session_group(key))
            return {"logged_out": True}

        return run_write(request, body)


class MeView(APIView):
    @extend_schema(operation_id="auth_me", responses={200: PrincipalSerializer})
    def get(self, request: Request) -> Response:
        """Who is calling: the staff user or the device, its role, a tablet's table."""
        return Response(principal_payload(request.user))


# --- staff accounts (admin) ----------------------------------------------------------------


class StaffSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices, allow_null=True)
    is_active = StrictBooleanField()


STAFF_ROLES = [(value, label) for value, label in Role.choices if value != Role.DEALER]
"""The roles of a staff account: every role but dealer (dealers use table-bound tablets);
the schema lists only these."""


def _staff_role_field(**kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=STAFF_ROLES,
        error_messages={
            "invalid_choice": gettext_lazy(
                '"{input}" is not a staff role; dealers work through table-bound tablets.'
            )
        },
        **kwargs,
    )


def _is_active_admin(user: Any) -> bool:
    try:
        role = user.staff_profile.role
    except ObjectDoesNotExist:
        role = Role.ADMIN if user.is_superuser else None
    return bool(user.is_active) and role == Role.ADMIN


def _keep_an_admin(user_id: int) -> None:
    """Refuse a change that leaves the room without an active admin account.

    Raises:
        DomainError ``last_admin`` (409): no other active admin account would be left.
    """
    others = (
        User.objects.select_for_update(of=("self",))
        .filter(is_active=True)
        .exclude(pk=user_id)
        .select_related("staff_profile")
    )
    if not any(_is_active_admin(u) for u in others):
        raise _refusal(
            "last_admin",
            "This is the last active admin account: make another admin first.",
            409,
            user_id=user_id,
        )


class CreateStaffRequest(RequestSerializer):
    username = SafeCharField(
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text="Letters, digits and @ . + - _ (Django's rule); unique in any case.",
    )
    password = PasswordField(
        help_text="Checked by the room's password validators (AUTH_PASSWORD_VALIDATORS).",
    )
    role = _staff_role_field(help_text="Any role but dealer.")


class UpdateStaffRequest(RequestSerializer):
    role = _staff_role_field(required=False, help_text="Any role but dealer.")
    is_active = StrictBooleanField(
        required=False, help_text="false locks the account out at its next request."
    )
    password = PasswordField(
        required=False,
        help_text="A new password (checked by AUTH_PASSWORD_VALIDATORS); the account's "
        "other sessions end.",
    )


def _staff_payload(user: Any) -> dict[str, Any]:
    try:
        role = user.staff_profile.role
    except ObjectDoesNotExist:
        role = Role.ADMIN if user.is_superuser else None
    return {
        "id": user.pk,
        "username": user.get_username(),
        "role": role,
        "is_active": user.is_active,
    }


def _check_password(password: str, user: Any = None) -> None:
    try:
        validate_password(password, user)
    except DjangoValidationError as exc:
        raise serializers.ValidationError({"password": list(exc.messages)}) from None


class StaffListView(APIView):
    @extend_schema(operation_id="list_staff", responses={200: StaffSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """Every account and its staff role (``null``: no role, denied everything)."""
        users = User.objects.select_related("staff_profile").order_by("pk")
        return Response([_staff_payload(user) for user in users])

    @extend_schema(
        operation_id="create_staff",
        request=CreateStaffRequest,
        responses={201: StaffSerializer, **ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    def post(self, request: Request) -> Response:
        """Create a staff account with a role (never ``dealer``: dealers use tablets).
        A taken username answers 409 ``username_taken``."""
        incoming = CreateStaffRequest(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = dict(incoming.validated_data)
        _check_password(data["password"], User(username=data["username"]))

        def body() -> dict[str, Any]:
            # "QA_Floor" beside "qa_floor" is one person to the floor, two accounts to Django
            if User.objects.filter(username__iexact=data["username"]).exists():  # before hashing
                raise _refusal(
                    "username_taken", "That username is taken.", 409, username=data["username"]
                )
            try:
                with transaction.atomic():
                    user = User.objects.create_user(
                        username=data["username"], password=data["password"]
                    )
            except IntegrityError:
                raise _refusal(
                    "username_taken", "That username is taken.", 409, username=data["username"]
                ) from None
            StaffProfile.objects.create(user=user, role=data["role"])
            return _staff_payload(user)

        identity = {"username": data["username"], "role": data["role"]}
        return _run_idempotent(request, body, identity=identity, status_code=201)


class StaffDetailView(APIView):
    @extend_schema(
        operation_id="update_staff",
        request=UpdateStaffRequest,
        responses={200: StaffSerializer, **ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    def patch(self, request: Request, user_id: int) -> Response:
        """Change an account's role, lock or unlock it, or set a new password. The last
        active admin account is neither locked nor given another role (409 ``last_admin``)."""
        incoming = UpdateStaffRequest(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = dict(incoming.validated_data)
        user = User.objects.filter(pk=user_id).first()
        if user is None:
            raise NotFound("staff_not_found", f"There is no account {user_id}.", user_id=user_id)
        if "password" in data:
            _check_password(data["password"], user)

        def body() -> dict[str, Any]:
            fresh = User.objects.select_for_update().get(pk=user_id)
            demoted = data.get("role", Role.ADMIN) != Role.ADMIN or data.get("is_active") is False
            if demoted and _is_active_admin(fresh):
                _keep_an_admin(user_id)
            if "role" in data:
                StaffProfile.objects.update_or_create(user=fresh, defaults={"role": data["role"]})
            if "is_active" in data:
                fresh.is_active = data["is_active"]
            if "password" in data:
                fresh.set_password(data["password"])
            fresh.save()
            if "role" in data or "password" in data:  # its sockets are authorised afresh
                revocation.close_sockets(f"user-{user_id}")
            return _staff_payload(User.objects.select_related("staff_profile").get(pk=user_id))

        identity = {
            "user_id": user_id,
            **{k: v for k, v in data.items() if k != "password"},
            "password_set": "password" in data,
        }
        return _run_idempotent(request, body, identity=identity)


# --- dealer tablets (floor) ------------------------------------------------------------------


class DeviceSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices)
    table_id = serializers.IntegerField(allow_null=True)
    revoked = StrictBooleanField()
    created_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)
    registered_by = serializers.IntegerField(allow_null=True, help_text="Staff user id.")
    revoked_by = serializers.IntegerField(allow_null=True, help_text="Staff user id.")


class RegisteredDeviceSerializer(DeviceSerializer):
    token = serializers.CharField(
        allow_null=True,
        help_text="The device token, in this answer only (null in a replay: revoke the "
        "device and register it again if the answer was lost).",
    )


class RegisterDeviceRequest(RequestSerializer):
    name = SafeCharField(max_length=100)
    table_id = StrictIntegerField(min_value=1, max_value=MAX_ID)


def _device_payload(device: Device) -> dict[str, Any]:
    return {
        "id": device.pk,
        "name": device.name,
        "role": device.role,
        "table_id": device.table_id,
        "revoked": device.revoked,
        "created_at": serializers.DateTimeField().to_representation(device.created_at),
        "revoked_at": serializers.DateTimeField().to_representation(device.revoked_at)
        if device.revoked_at
        else None,
        "registered_by": device.registered_by_id,
        "revoked_by": device.revoked_by_id,
    }


def _staff_user(request: Request) -> Any:
    """The user behind a console request, for ``registered_by`` / ``revoked_by``."""
    user = request.user
    return None if isinstance(user, Device) or user is None else user


class DeviceListView(APIView):
    @extend_schema(operation_id="list_devices", responses={200: DeviceSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """Every registered device, revoked ones too (never a token)."""
        return Response([_device_payload(d) for d in Device.objects.order_by("pk")])

    @extend_schema(
        operation_id="register_device",
        request=RegisterDeviceRequest,
        responses={201: RegisteredDeviceSerializer, **ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    def post(self, request: Request) -> Response:
        """Register a dealer tablet bound to one open table; the answer holds its token,
        shown this once. 404 ``table_not_found``, 422 ``table_closed``, 409
        ``device_name_taken``."""
        incoming = RegisterDeviceRequest(data=request.data)
        incoming.is_valid(raise_exception=True)
        name, table_id = incoming.validated_data["name"], incoming.validated_data["table_id"]
        issued: list[str] = []

        def body() -> dict[str, Any]:
            table_status = table_lookup.lookup().table_status(table_id)
            if table_status is None:
                raise NotFound(
                    "table_not_found", f"There is no table {table_id}.", table_id=table_id
                )
            if table_status != "open":
                raise _refusal(
                    "table_closed", f"Table {table_id} is closed.", 422, table_id=table_id
                )
            try:
                with transaction.atomic():
                    device = Device.objects.create(
                        name=name,
                        role=Role.DEALER,
                        table_id=table_id,
                        registered_by=_staff_user(request),
                    )
            except IntegrityError:
                raise _refusal(
                    "device_name_taken", "A device has that name.", 409, name=name
                ) from None
            assert device.token is not None  # a new device carries its plain token once
            issued.append(device.token)
            return {**_device_payload(device), "token": None}

        refuse_if_match(request)  # devices are no event stream
        response = run_write(request, body, status_code=status.HTTP_201_CREATED)
        if issued and not response.has_header("Idempotent-Replayed"):
            response.data = {**response.data, "token": issued[-1]}
        return response


class RevokeDeviceView(APIView):
    @extend_schema(
        operation_id="revoke_device",
        request=None,
        responses={200: DeviceSerializer, **ERRORS},
        parameters=[IDEMPOTENCY_KEY],
    )
    def post(self, request: Request, device_id: int) -> Response:
        """Revoke a device: its token is refused from now on. The floor revokes dealer
        tablets; other devices only an admin. Revoking twice changes nothing."""
        device = Device.objects.filter(pk=device_id).first()
        if device is None:
            raise NotFound(
                "device_not_found", f"There is no device {device_id}.", device_id=device_id
            )
        if device.role != Role.DEALER and role_of(request.user) != Role.ADMIN:
            raise PermissionDenied("Only an admin may revoke a device that is not a tablet.")

        def body() -> dict[str, Any]:
            fresh = Device.objects.select_for_update().get(pk=device_id)
            if not fresh.revoked:
                fresh.revoked = True
                fresh.revoked_at = clock.now()
                fresh.revoked_by = _staff_user(request)
                fresh.save(update_fields=["revoked", "revoked_at", "revoked_by"])
            return _device_payload(fresh)

        refuse_if_match(request)  # devices are no event stream
        response = run_write(request, body)
        forget_device(device.token_hash)
        return response

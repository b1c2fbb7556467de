"""Forms for the console pages. They shape input only; the services decide and save."""

from __future__ import annotations

from django import forms


class PathFilterForm(forms.Form):
    """The store page's filter: a path prefix (starting with /) or any part of a path."""

    path = forms.CharField(
        required=False,
        max_length=1024,
        label="Path",
        help_text="A folder such as /conventions/, or any part of a path.",
        widget=forms.TextInput(attrs={"placeholder": "/conventions/", "size": 40}),
    )


class DeleteForm(forms.Form):
    """Why a memory is deleted; kept with the deletion's version."""

    reason = forms.CharField(
        required=False,
        max_length=2000,
        label="Reason (optional)",
        help_text="Kept with the deletion, for whoever reads the history later.",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
    )


class RedactForm(forms.Form):
    """Redaction cannot be undone: the page posts confirm=yes, a reason, and the memory's path
    typed in by the person (``confirm_path``), which must match the memory's path exactly."""

    confirm = forms.CharField(required=False, widget=forms.HiddenInput, initial="yes")
    reason = forms.CharField(
        max_length=2000,
        label="Reason",
        help_text="Why the text must go for good; kept with the redaction (without the text).",
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        error_messages={"required": "Give a reason for the redaction."},
    )
    confirm_path = forms.CharField(
        max_length=1024,
        label="Type the memory's path to confirm",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", "size": 40}),
        error_messages={"required": "Type the memory's path to confirm the redaction."},
    )

    def __init__(self, *args, path: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.path = path

    def clean_confirm(self) -> str:
        value = self.cleaned_data["confirm"]
        if value != "yes":
            raise forms.ValidationError("Confirm the redaction: it cannot be undone.")
        return value

    def clean_confirm_path(self) -> str:
        value = self.cleaned_data["confirm_path"].strip()
        if value != self.path:
            raise forms.ValidationError(
                f"The path you typed does not match {self.path}: nothing was redacted. Type it exactly."
            )
        return value

def _lf(text: str) -> str:
    """Browsers send a textarea's lines ending in CR LF; memory text keeps plain LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


class MemoryTextField(forms.CharField):
    """Markdown text exactly as typed (no stripping), with LF line endings; empty is allowed."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("strip", False)
        kwargs.setdefault("label", "Content (Markdown)")
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 18, "cols": 80, "spellcheck": "true", "class": "mono"}))
        super().__init__(**kwargs)

    def to_python(self, value):
        return _lf(super().to_python(value) or "")


def _reason_field(help_text: str) -> forms.CharField:
    return forms.CharField(
        required=False,
        max_length=2000,
        label="Reason",
        help_text=help_text,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 80}),
    )


def _path_field(help_text: str) -> forms.CharField:
    return forms.CharField(
        max_length=1024,
        label="Path",
        help_text=help_text,
        widget=forms.TextInput(attrs={"size": 60, "class": "mono", "placeholder": "/conventions/naming.md"}),
    )


class MemoryEditForm(forms.Form):
    """Edit a memory: its text, its path (rename or move within the store), why; on the version opened."""

    path = _path_field("Change it to rename the file or move it to another folder of this store.")
    content = MemoryTextField()
    reason = _reason_field("Kept with the new version, for whoever reads the history later.")
    opened_version = forms.CharField(max_length=40, widget=forms.HiddenInput)


class MemoryCreateForm(forms.Form):
    """A new file: where it goes, its text and why."""

    path = _path_field("Where the file goes, ending in .md, e.g. /conventions/naming.md.")
    content = MemoryTextField()
    reason = _reason_field("Kept with the first version, for whoever reads the history later.")


class RevertForm(forms.Form):
    """Why an older version's text comes back (optional)."""

    reason = forms.CharField(
        required=False,
        max_length=1900,
        label="Reason (optional)",
        widget=forms.TextInput(attrs={"placeholder": "Why this version's text comes back"}),
        help_text="Kept with the new version. Never paste a secret.",
    )


class MergeForm(forms.Form):
    """The merged text the person saves, and the saved copy it was merged onto."""

    content = MemoryTextField(label="Merged text (Markdown)")
    reason = _reason_field("Optional; kept with the new version.")
    saved_sha256 = forms.CharField(min_length=64, max_length=64, widget=forms.HiddenInput)


class PromotionForm(forms.Form):
    """Propose a project note for a shared store: the target store, its path there, the text, why."""

    target_store = forms.ChoiceField(
        label="Target store",
        help_text="The practice store, or the store of one of the project's toolsets.",
    )
    path = _path_field("The note's path in the target store; by default its path in the project.")
    text = MemoryTextField(
        label="Text to promote (Markdown)",
        help_text="Edit it into the general lesson: no client detail may reach a store shared across clients.",
    )
    reason = _reason_field("Why this lesson holds beyond the project; shown to the approvers.")

    def __init__(self, *args, targets=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["target_store"].choices = [(s.public_id, f"{s.name} ({s.kind})") for s in targets]


class PromotionDecisionForm(forms.Form):
    """Why a person approves or refuses a promotion; kept with their decision."""

    reason = forms.CharField(
        max_length=2000,
        label="Reason",
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        error_messages={"required": "Give a reason; it is kept with your decision."},
    )

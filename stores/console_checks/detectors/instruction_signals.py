"""Signals that need no training: what a sentence does to the agent that will read it.

Each signal is a small lexicon of roles, verbs and objects combined by position in one sentence
(a verb, a few words at most, an object), never one pattern per example sentence. They run on
normalised text (lower case, accents dropped, look-alike letters folded; see ``instruction_text``).

- role or system markers, in any syntax (chat-template tokens, XML-like tags, Markdown headings,
  ``role: system`` in YAML or JSON, bracketed sections, labels in tables and checklists);
- text addressed to whoever reads the note, when it gives an order;
- the agent's own instructions overridden, its identity or behaviour changed;
- claims that QA, review, approval or the checks are off or not needed;
- orders to skip or bypass QA, tests, hooks, reviews, approvals or the escalation contact;
- permissions granted to the agent; things hidden from people; tracks covered;
- orders to send data out;
- claims of standing-decision or governance authority.

Orders in German, French, Spanish, Chinese and Japanese are covered by the same groups. The concept
check (``instruction_concepts``: what a sentence touches, what it does to it, who it is said to)
adds its signals under the same kinds, so a refusal names the passage and what it does alike.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

import ahocorasick

from . import instruction_concepts
from .instruction_text import normalise

__all__ = ["Signal", "fence_marker", "imperative_opening", "line_markers", "sentence_signals", "transcript", "KINDS"]

OVERRIDE = "overrides the agent's instructions"
ORDER = "order to the agent reading the note"
ADDRESS = "addresses the agent reading the note"
ROLE = "role or system marker"
SECRECY = "tells the agent to hide things from people or cover its tracks"
EXFIL = "tells the agent to send data out"
AUTHORITY = "claims the authority of a standing decision or the governance template"
CHECKS_OFF = "claims that QA, review, approval or the checks are off or not needed"
SKIP_GATE = "tells the agent to skip QA, tests, hooks, reviews, approvals or the escalation contact"
PERMISSION = "grants the agent permissions"
KINDS = (OVERRIDE, ORDER, ADDRESS, ROLE, SECRECY, EXFIL, AUTHORITY, CHECKS_OFF, SKIP_GATE, PERMISSION)


@dataclass(frozen=True)
class Signal:
    """One signal in a text: what it is and where it starts (an offset in the text scanned)."""

    kind: str
    start: int


_WORDS: dict[str, tuple[str, ...]] = {}  # each lexicon's regex -> its words, to gate the patterns built on it


def _alt(words: str) -> str:
    """A regex alternation from a ``|``-separated word list, longest first (so "reviews" beats "review")."""
    items = sorted({w.strip() for w in words.split("|") if w.strip()}, key=len, reverse=True)
    # Written by first character (the same matches, see ``instruction_concepts.by_first_char``).
    regex = instruction_concepts.by_first_char(
        [(w[0], re.escape(w).replace(r"\ ", r"\s+").removeprefix(re.escape(w[0])), False) for w in items])
    _WORDS[regex] = tuple(items)
    return regex


def _words(*lexicons: str) -> tuple[str, ...]:
    """The words of lexicons (regexes made by ``_alt``), as literal triggers of a pattern."""
    return tuple(w for lexicon in lexicons for w in _WORDS[lexicon])


def _normalised_words(words: str) -> str:
    """An alternation of ``|``-separated words, normalised as the text is (Cyrillic letters folded alike)."""
    return "(?:" + "|".join(re.escape(normalise(w)).replace(r"\ ", r"\s+") for w in words.split("|")) + ")"


# --------------------------------------------------------------------------------------------
# Lexicons (normalised: lower case, no accents)
# --------------------------------------------------------------------------------------------

_G = r"[^.!?;:\n]"  # a character of the same clause
# A word that is not a negation ("memory never overrides ..." is no claim).
_W = r"(?:(?!(?:not|never|no|cannot|nor|nicht|nie|niemals|jamais|pas|nunca)\b)[^\s.!?;:\n]+\s+)"
_GAP = _W + "{0,3}?"  # up to three words between a verb and its object

AGENT = _alt(
    "ai|a.i.|assistant|assistants|agent|agents|llm|llms|language model|ai model|chatbot|bot|claude|gpt|chatgpt|"
    "copilot|gemini|model reading this|reader agent|automated reader|automated readers|machine reader|ai agent|"
    "ai agents|ai assistant|coding agent|autonomous agent|hosted agent|next agent|next run|"
    "ki|assistent|assistenten|agenten|sprachmodell|ia|agente|agentes|asistente|modele de langage|"
    "modelo de lenguaje|intelligence artificielle|inteligencia artificial"
)
READER_VERB = _alt(
    "reading|reads|retrieving|retrieves|loading|loads|processing|processes|opening|opens|parsing|parses|"
    "ingesting|ingests|summarising|summarizing|summarises|summarizes|seeing|sees|finding|finds|picking up|"
    "picks up|scanning|scans|receiving|receives|retrieved|loaded|read|"
    "liest|lesen|lit|lire|lee|leer|lea"
)
# Verbs an order to the agent opens with (imperative), across the work an agent does.
ORDER_VERB = _alt(
    "approve|merge|push|force-push|deploy|release|ship|publish|delete|drop|truncate|remove|wipe|purge|erase|"
    "skip|disable|bypass|ignore|disregard|forget|override|grant|give|send|post|upload|email|e-mail|share|"
    "forward|reveal|print|leak|copy|paste|execute|close|resolve|mark|commit|change|rewrite|replace|set|add|"
    "create|write|tell|say|report|hide|conceal|escalate|run|rerun|trigger|revert|reset|rotate|transfer|move|"
    "rename|edit|modify|update|exfiltrate|treat|obey|follow|comply|act|pretend|answer|respond|reply|stop|"
    "turn off|switch off|assume|consider|accept|assign|tag|promote|include|output|repeat|show|list|dump|"
    "save|store|make|do|go|use|never|always|only|just|please|kindly|don't|do not|avoid|keep|put|enable|open|start|"
    "begin|launch|install|uninstall|download|fetch|call|invoke|submit|file|raise|lie|assign|request|"
    "genehmige|merge|pushe|losche|uberspringe|ignoriere|vergiss|sende|schicke|kopiere|schliesse|deaktiviere|"
    "umgehe|gib|zeige|melde|bitte|approuve|fusionne|pousse|supprime|saute|ignore|oublie|envoie|copie|ferme|"
    "desactive|contourne|donne|montre|revele|merci de|aprueba|fusiona|haz|borra|salta|saltate|ignora|olvida|"
    "envia|copia|cierra|desactiva|omite|da|muestra|revela|por favor|approva|salta|invia|aprove|pule|envie|"
    "negeer|sla|stuur|keur"
)
# The agent's own control plane; the weak words need a word saying "yours" or "the earlier ones".
CONTROL_STRONG = _alt(
    "instructions|instruction|guidance|system prompt|system prompts|system message|system messages|prompt|prompts|"
    "guardrails|guardrail|directives|directive|programming|training|guidelines|safety rules|safety guidelines|"
    "safety filters|safety measures|content policy|content policies|ethical guidelines|persona|"
    "anweisungen|anweisung|vorgaben|richtlinien|systemprompt|consignes|directives|prompt systeme|"
    "instrucciones|indicaciones|directrices|prompt del sistema|istruzioni|instrucoes|instructies"
)
CONTROL_WEAK = _alt(
    "rules|constraints|policies|policy|orders|commands|configuration|restrictions|limitations|boundaries|"
    "principles|protocols|context|regeln|regles|reglas|regole|regras|regels"
)
# Words that make a weak object the agent's own ("your rules", "the previous constraints").
MINE_STRONG = _alt(
    "your|yours|previous|prior|above|earlier|preceding|original|initial|system|developer|operator|deine|deinen|"
    "vorherigen|bisherigen|tes|precedentes|anterieures|tus|anteriores|precedenti|vorige"
)
MINE = _alt(
    "your|yours|previous|prior|above|earlier|preceding|original|initial|system|developer|operator|all|any|"
    "every|other|existing|default|current|given|old|former|deine|deinen|alle|vorherigen|bisherigen|"
    "tes|toutes les|precedentes|anterieures|tus|todas las|anteriores|tutte le|precedenti|todas as|vorige"
)
UNDO = _alt(
    "ignore|ignoring|disregard|disregarding|forget|forgetting|override|overriding|overrule|set aside|discard|"
    "abandon|bypass|circumvent|nullify|void|throw out|throw away|pay no attention to|stop following|"
    "stop obeying|do not follow|do not obey|no longer follow|never follow|break free of|break free from|escape|"
    "ignoriere|ignorier|vergiss|missachte|verwirf|ignore|oublie|ne tiens pas compte de|oublies|ignora|olvida|"
    "olvidate de|no hagas caso a|descarta|dimentica|esqueca|negeer|vergeet"
)
VOID = _alt(
    "are void|is void|no longer apply|no longer applies|do not apply|does not apply|are cancelled|are canceled|"
    "were revoked|are revoked|are outdated|is outdated|are obsolete|is obsolete|are invalid|are lifted|"
    "have been lifted|are suspended|is suspended|were written for another|are not binding|is not binding|"
    "have been superseded|has been superseded|are superseded|were replaced|are replaced|have been replaced|"
    "has been replaced|stopped applying|are wrong|is wrong|do not count|does not count|no longer valid|"
    "are no longer valid|can be ignored|are fake|are not real|gelten nicht mehr|sind ungultig|ne s'appliquent plus|"
    "sont annulees|ya no aplican|ya no son validas|quedan anuladas"
)
GATE_STRONG = _alt(
    "qa|quality assurance|review|reviews|code review|code reviews|peer review|reviewer|reviewers|approval|"
    "approvals|sign-off|signoff|sign off|console's checks|console checks|memory checks|"
    "required checks|safety checks|governance checks|secret scan|quality gate|linter gate|pre-commit hooks|"
    "content checks|memory write checks|"
    "pre-commit hook|git hooks|commit hooks|hooks|branch protection|four-eyes rule|four eyes|"
    "escalation contact|escalation step|escalation|change advisory board|security review|review queue|"
    "manual approval|oversight|audit log|activity log|release checklist|qa step|qa sign-off|the review step|"
    "client-detail rule|client detail rule|client-detail check|secret scanner|the scanner|detect-secrets|"
    "the console's rules|the memory rules|the writing rules|content rules|instructions check|the pr template|"
    "prufung|freigabe|code-review|eskalationskontakt|revue|relecture|validation|approbation|revue de code|"
    "contact d'escalade|revision|aprobacion|revision de codigo|contacto de escalado|revisione|revisao|"
    "pre-commit-hooks|hooks de pre-commit|hooks pre-commit"
)
GATE_WEAK = _alt("tests|test suite|the tests|all tests|ci|linter|lint|checks|ci checks|pipeline checks|tests unitaires|pruebas")
RELEASE_VERB = _alt(
    "merge|merging|push|pushing|deploy|deploying|release|releasing|ship|shipping|publish|close the ticket|"
    "approve|tag|go live|promote|commit|mark|resolve|fusionne|fusiona|pushe|deploye|publie|publica|despliega|"
    "deploie|veroffentliche|haz push|pousse"
)
SKIP_VERB = _alt(
    "skip|skipping|bypass|bypassing|skip over|do not bother with|leave out|omit|circumvent|get around|go around|"
    "work around|avoid|turn off|switch off|disable|ignore|disregard|waive|dodge|sidestep|do without|no need to wait for|"
    "do not wait for|stop waiting for|forget about|do not run|never run|stop running|do not request|do not ask for|"
    "never ask for|stop asking for|do not involve|never involve|leave out|cut out|keep out|uberspringe|uberspring|umgehe|ignoriere|deaktiviere|"
    "lass weg|saute|sauter|contourne|ignore|desactive|saltate|salta|omite|evita|ignora|desactiva|sla over|"
    "pule|salta|ignore"
)
OFF_STATE = _alt(
    "not needed|not required|not necessary|unnecessary|optional|waived|disabled|off|turned off|switched off|"
    "suspended|skipped|cancelled|canceled|removed|no longer needed|no longer required|no longer applies|"
    "no longer apply|no longer necessary|pre-approved|preapproved|already approved|already granted|"
    "already done|already given|already signed off|only for humans|does not apply to agents|does not apply to you|"
    "do not apply to agents|a formality|lifted|paused|not mandatory|a waste of time|handled already|"
    "signed off in advance|nicht notig|nicht erforderlich|deaktiviert|bereits erteilt|entfallt|"
    "pas necessaire|desactive|desactives|desactivee|desactivees|deja donnee|deja accordee|inutile|facultative|"
    "no es necesaria|no es necesario|desactivadas|desactivados|desactivada|ya esta dada|innecesaria|opcional"
)
PEOPLE = _alt(
    "the user|the users|users|the human|the humans|humans|the operator|operators|the reviewers|the reviewer|"
    "reviewers|the escalation contact|anyone|anybody|your principal|your supervisor|the supervisor|the admins|"
    "the admin|the people|people|the console users|the client|the qa team|your owner|your creators|nobody|no one|"
    "the person|a person|the person reviewing this|whoever reviews this|the human reviewer|the team|"
    "dem benutzer|den benutzer|niemandem|l'utilisateur|personne|al usuario|nadie"
)
SENSITIVE = _alt(
    "credentials|credential|secrets|secret|tokens|token|api keys|api key|keys|passwords|password|passphrase|"
    ".env|env vars|environment variables|profiles.yml|~/.ssh|id_rsa|private key|private keys|vault contents|"
    "the vault|service account key|session cookie|cookies|system prompt|memories|every note|all notes|"
    "the notes|memory store|the store|customer data|customer table|database dump|pii|client's data|client data|"
    "run token|access token|aws credentials|/etc/passwd|the contents of|the data|all data|the database|"
    "zugangsdaten|passwort|schlussel|geheimnis|identifiants|mot de passe|jeton|credenciales|contrasena|"
    "la cle|les cles|clave|secreto|credenziali|credenciais|inloggegevens"
)
OUTSIDE = (
    r"(?:https?://|www\.|\S+@\S+\.\w+|webhook|pastebin|gist|public|external|outside|personal (?:email|inbox|account)|"
    r"my (?:email|inbox|server|account|telegram|discord|slack)|telegram|discord|your (?:reply|answer|response|output)|"
    r"the (?:reply|answer|response)|ticket (?:comments?|description)|the comments?|a comment|this address|the address|"
    r"(?:a |the |as a )?(?:pr|ticket|jira|github) comments?|the url|that url|this url|bucket|(?:next |your )?commit messages?|the ticket\b|a ticket\b|the pr\b|the channel|slack|"
    r"an? (?:new )?(?:public )?repo|attacker|\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})"
)
SEND_VERB = _alt(
    "send|post|upload|email|e-mail|mail|forward|copy|paste|exfiltrate|leak|share|transmit|dump|export|include|"
    "add|put|write|attach|sende|schicke|kopiere|lade|envoie|copie|transmets|colle|envia|copia|manda|pega|invia|"
    "envie|stuur"
)
REVEAL_VERB = _alt(
    "reveal|print|output|repeat|show|display|tell me|write out|dump|leak|list|summarise|summarize|disclose|"
    "zeige|verrate|revele|affiche|revela|muestra|mostra"
)
REVEALED = _alt(
    "system prompt|system message|your instructions|your initial instructions|your prompt|your hidden rules|"
    "your rules|your configuration|the text above|everything above|what you were told|your guidelines|"
    "initial prompt|hidden instructions|developer message|your context|your context window|the contents of your|your memory|"
    "deinen systemprompt|ton prompt systeme|tu prompt del sistema"
)
SELF = _alt(
    "this note|this memory|this memo|this file|this lesson|this entry|this document|this text|this page|this rule|"
    "this instruction|these notes|these memories|these rules|these instructions|the following|what follows|memory|"
    "memories|agent memory|this store|the notes in this store|diese notiz|cette note|esta nota|questa nota|"
    "esta nota|deze notitie"
)
AUTH_NOUN = _alt(
    "standing decision|standing decisions|ruling|rulings|governance template|governance rule|governance rules|"
    "governance policy|binding|mandatory|official policy|official rule|the law|authoritative|highest authority|"
    "a people's ruling|the project's policy|policy for this project|the final word|final|the final authority|"
    "the source of truth|the only source of truth|the single source of truth|"
    "grundsatzentscheidung|standige entscheidung|dauerhafte entscheidung|verbindlich|decision permanente|"
    "decision permanente|decision de gouvernance|decision permanente|vast besluit|decisione permanente"
)
IS_VERB = _alt(
    "is|are|counts as|count as|serves as|acts as|becomes|is now|constitutes|has the status of|has the force of|"
    "should be considered|must be considered|is considered|is to be considered|carries the authority of|carries the weight of|"
    "should be read as|must be read as|is to be read as|should count as|must count as|has the same authority as|"
    "has the same weight as|is as binding as|ranks with|ranks above|equals|is equal to|"
    "has the authority of|has the weight of|should be treated as|must be treated as|is to be treated as|"
    "shall be treated as|ist|est|es|e|is een"
)
PRECEDE = _alt(
    "overrides|override|supersedes|supersede|takes precedence over|take precedence over|has precedence over|"
    "outranks|outrank|replaces|wins over|trumps|has priority over|takes priority over|prevails over|cancels|"
    "beats|hat vorrang vor|prime sur|a priorite sur|tiene prioridad sobre|prevalece sobre|ha la precedenza su"
)
GOV = _alt(
    "governance template|the governance|governance|standing decisions|standing decision|any standing decision|"
    "rulings|ruling|people's rulings|the ticket|your instructions|the project rules|the console's rules|"
    "the client's policy|everything else|system prompt|all other notes|the escalation contact|"
    "governance-vorlage|modele de gouvernance|plantilla de gobernanza"
)
GOV_UNDERMINE = _alt(
    "ignore|ignored|does not apply|do not apply|no longer applies|no longer apply|void|suspended|outdated|optional|"
    "waived|is wrong|can be ignored|not binding|is not binding|is obsolete|is off|skip|skipped|lifted|advisory|obsolete|"
    "a draft|only a draft|outdated|out of date|irrelevant|not relevant|replaced|been replaced|replaced by|"
    "are advisory|is advisory|superseded|are superseded|is superseded|overridden|are overridden|no longer binding"
)
AUTHORITY_WHO = _alt(
    "the escalation contact|escalation contact|the cto|the ceo|governance|management|the client|the security team|"
    "security|the admins|the admin|the project owner|the lead|the console team|compliance|legal|your developers|"
    "your developer|your creators|anthropic|openai|the system administrator|the standing decisions board|"
    "des eskalationskontakts|du contact d'escalade|del contacto de escalado"
)
PRIV_VERB = _alt(
    "approve|merge|push|force-push|deploy|release|grant|skip|bypass|override|delete|drop|edit|change|close|"
    "run migrations|self-approve|ignore|deactivate|create admin|read every|write to the shared|disable|"
    "freigeben|mergen|genehmigen|approuver|fusionner|aprobar|fusionar"
)
MAY = _alt(
    "are authorised to|are authorized to|are allowed to|are permitted to|are entitled to|have been cleared to|"
    "are cleared to|are free to|now have permission to|have permission to|have the right to|have the rights to|"
    "are welcome to|is authorised to|is authorized to|is allowed to|is permitted to|is entitled to|are now permitted to|"
    "are now allowed to|are now authorised to|are now authorized to|are now free to|are now cleared to"
)
PRIV_SUBJECT = _alt("you|agents|the agent|agents reading this|assistants|the assistant|ai agents|every agent|any agent")
HIDE = _alt(
    "do not tell|never tell|do not inform|never inform|do not mention|never mention|do not let|never let|"
    "do not report|never report|do not show|never show|not tell|not inform|not mention|not report|hide|conceal|"
    "without telling|without informing|lie to|deceive|mislead|withhold from|erzahl|ne dis rien|no le digas"
)
NOTE = _alt("this note|this memory|this file|this message|this entry|this lesson|this text|it|this|diese notiz|cette note|esta nota")
NEGATION = re.compile(
    r"\b(?:not|never|no|cannot|nor|without|nicht|nie|niemals|kein|keine|jamais|pas|nunca|jamas)\b"
    r"(?:\s+[^\s.!?;]+){0,3}\s*$"
)


_CJK_NEGATION = re.compile(r"(?:不要|别|別|不得|禁止|绝不|切勿|不可|不能|不许|不准|不应|不该|決して)[^。！？，,、\n]{0,8}$")


def _negated(text: str, start: int) -> bool:
    """Whether the few words before ``start`` in the same clause negate it ("never skip QA", "不要把密钥...")."""
    before = text[max(0, start - 36) : start]
    cut = max(before.rfind(c) for c in ".!?;:\n,")
    return bool(NEGATION.search(before[cut + 1 :]) or _CJK_NEGATION.search(before))


# Imperative at a clause start: optional softeners, then an order verb.
_SOFT = (
    r"(?:(?:please|kindly|just|now|then|also|first|immediately|simply|always|never|do not|quietly|silently|secretly|"
    r"carefully|right away|bitte|merci de|por favor|feel free to|go ahead and)\s+)*"
)
_DIRECTIVE = re.compile(
    rf"^\W*(?:{_SOFT}{ORDER_VERB}\b|(?:you|it|they)\s+(?:must|should|will|shall|need to|have to|are to|may|can|are required to)\b|"
    rf"(?:should|must|needs to|has to|is to|is required to|shall)\s+(?:\S+\s+)?\w+|"
    rf"your\s+(?:new\s+|real\s+|first\s+|only\s+)?(?:task|job|goal|orders?|instructions?|priority|objective)\b|"
    rf"(?:agents?|assistants?|the ai|ai)\s+(?:must|should|may|will|can|are to)\b|"
    rf"(?:du|tu|usted)\s+\w+|"
    rf"[^\x00-\u2fff]*(?:请|要|必须|不要|别|应该|立即|直接|してください|すること|しなさい|しろ|して|ないで|こと|承認|削除|スキップ|批准|删除|跳过|发送|送信))"
)


_IMPERATIVE_CLAUSE = re.compile(rf"(?:^|[.!?;:,]\s+)\W{{0,4}}{_SOFT}{ORDER_VERB}\s")


def imperative_opening(text: str) -> bool:
    """Whether a clause of ``text`` opens with an order verb ("skip ...", "please send ...")."""
    return bool(_IMPERATIVE_CLAUSE.search(text))


def _is_directive(rest: str) -> bool:
    return bool(_DIRECTIVE.search(rest))


def _one_line(pattern: str) -> str:
    """``pattern`` with every ``\\s`` outside a character class made a space that is not a line break.

    Lines of a note are joined with line breaks, and a paragraph's wrapped lines with spaces (see
    ``instructions``): a signal stays within one paragraph, a heading never runs into the next line.
    """
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            pair = pattern[i : i + 2]
            out.append("[^\\S\\n]" if pair == "\\s" and not in_class else pair)
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "^":
                out.append("[^")
                i += 2
                if pattern[i : i + 1] == "]":
                    out.append("]")
                    i += 1
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(_one_line(pattern))


# (kind, regex, negatable, literal triggers: the regex runs only when one of them is in the text)
_PATTERNS: list[tuple[str, re.Pattern[str], bool, frozenset[str]]] = []


def _add(kind: str, pattern: str, negatable: bool, *triggers: str) -> None:
    # A set, so a text's few trigger words are intersected with it rather than every trigger looked up.
    _PATTERNS.append((kind, _rx(pattern), negatable, frozenset(triggers)))


# Overriding the agent's own instructions.
_add(OVERRIDE, rf"\b{UNDO}\s+(?:(?:all|any|every)\s+(?:of\s+)?)?(?:the\s+)?{_GAP}{MINE}\s+{_GAP}{CONTROL_STRONG}\b", True, *_words(CONTROL_STRONG))
_add(OVERRIDE, rf"\b{UNDO}\s+(?:(?:all|any|every)\s+(?:of\s+)?)?(?:the\s+)?{_GAP}{MINE_STRONG}\s+{_GAP}{CONTROL_WEAK}\b", True, *_words(CONTROL_WEAK))
_add(OVERRIDE, rf"\b{UNDO}\s+(?:all\s+|everything\s+|anything\s+)?(?:the above|everything above|what came before|"
     rf"what you were told|everything you (?:were|have been) told|everything before this|the preceding|"
     rf"your (?:training|programming|conditioning|alignment))", True, "above", "before", "preceding", "told", "training", "programming", "conditioning", "alignment")
_add(OVERRIDE, rf"\b{MINE}\s+{_GAP}(?:{CONTROL_STRONG}|{CONTROL_WEAK})\s+{_G}{{0,30}}?{VOID}\b", True, *_words(VOID))
_add(OVERRIDE, r"\b(?:(?:instead of|rather than|in place of)\s+(?:your|the)|(?:over|above)\s+your)\s+(?:system prompt|instructions|"
     r"guidelines|rules|task|ticket|user's request|orders)\b", True, "instead of", "rather than", "in place of", "over your", "above your")
_add(OVERRIDE, r"\b(?:follow|obey|trust)\s+(?:only\s+)?(?:this|these)\s+(?:note|memory|file|instructions|rules)"
     r"\s*(?:only|instead|alone|above (?:all|everything|anything)|over)", True, "follow", "obey", "trust")
_add(OVERRIDE, r"\b(?:obey|follow)\s+only\s+(?:the\s+)?(?:commands|orders|instructions|rules)\b", True, "obey only", "follow only")
_add(OVERRIDE, r"\bdo (?:whatever|everything|anything|all) (?:this note|this memory|this file|the note|i|this text|these notes|"
     r"it|this) (?:says|asks|tells|demands|wants)\b", False, "whatever", "everything", "anything", "all")
_add(OVERRIDE, r"\b(?:the\s+|my\s+|your\s+)?(?:real|actual|true|hidden|secret)\s+(?:instructions|orders|task|rules|prompt|directives)\s+"
     r"(?:are|is|follow|come|:)", False, "instructions", "orders", "task", "rules", "prompt", "directives")
_add(OVERRIDE, rf"\b{UNDO}\s+(?:any\s+|all\s+|the\s+)?(?:instructions|orders|requests|commands|corrections)\s+from\b", True, "instructions from", "orders from", "requests from", "commands from", "corrections from")
_add(OVERRIDE, rf"\b{UNDO}\s+(?:what|whatever|anything)\s+(?:the\s+)?(?:{GOV}|{PEOPLE}|escalation contact|reviewers?|user|client)\s+"
     rf"(?:says?|said|wants?|asks?|decided|decides|requires?|required|tells? you|told you)\b", True, "what the", "whatever", "anything the", "what people", "what users")
_add(OVERRIDE, rf"\b(?:rules|instructions|guidelines|constraints|policies|restrictions|guardrails)\s+(?:that\s+)?you\s+(?:operate under|"
     rf"work under|run under|were given|received|follow|have|obey)\b{_G}{{0,60}}?(?:{VOID}|\b(?:ignore|disregard|forget) (?:them|it)\b)",
     True, "you")
_add(OVERRIDE, rf"\b{UNDO}\s+(?:the\s+)?(?:user's|users'|their|his|her|the operator's|the reviewer's|the reviewers'|people's|human|"
     rf"the human's)\s+(?:requests|instructions|orders|input|messages|corrections|objections|feedback)\b", True, "requests", "instructions", "orders", "input", "messages", "corrections", "objections", "feedback")
_add(OVERRIDE, rf"\b(?:{SELF}|this)\s+{_W}{{0,3}}?{PRECEDE}\s+(?:all\s+|any\s+|your\s+|every\s+|the\s+)?"
     rf"(?:other\s+|previous\s+|prior\s+|existing\s+|system\s+|original\s+)*(?:instructions|directives|"
     rf"guidelines|prompts?|system prompt|everything|programming|rules)\b", True, *_words(PRECEDE))
_MORE_UNDO = _normalised_words(
    "negeer|vergeet|zignoruj|ignoruj|zapomnij|ignorera|glom|strunta i|игнорируй|проигнорируй|игнорировать|забудь|не следуй|"
    "ігноруй|забудь|yok say|unut|gormezden gel|abaikan|lupakan|bo qua|quen|đung lam theo|تجاهل|انس|अनदेखा|भूल|무시|잊")
_MORE_CONTROL = _normalised_words(
    "instructies|instructie|richtlijnen|systeemprompt|instrukcje|instrukcji|instrukcjami|wytyczne|wytycznych|prompt systemowy|"
    "instruktioner|instruktionerna|riktlinjer|systemprompten|инструкции|инструкций|указания|системный промпт|системные|"
    "інструкції|talimatlari|talimatlar|talimat|yonergeleri|sistem istemi|instruksi|petunjuk|pedoman|huong dan|chi dan|chi thi|"
    "التعليمات|تعليمات|निर्देश|निर्देशों|지시|지침|프롬프트")
_add(OVERRIDE, rf"(?<![\w]){_MORE_UNDO}(?![\w]){_G}{{0,60}}?{_MORE_CONTROL}|(?<![\w]){_MORE_CONTROL}{_G}{{0,40}}?{_MORE_UNDO}", True,
     *(normalise(w) for w in ("instructie", "richtlijn", "systeemprompt", "instrukc", "wytyczn", "instruktion", "riktlinj", "инструкц",
                              "указани", "промпт", "інструкц", "talimat", "yonerge", "istemi", "instruksi", "petunjuk", "pedoman",
                              "huong dan", "chi dan", "chi thi", "تعليمات", "निर्देश", "지시", "지침", "프롬프트")))
_add(OVERRIDE, r"(?:忽略|无视|忘记|忘掉|不要理会|绕过|不要遵守|不再遵守)[^。！？\n]{0,12}(?:指令|指示|规则|提示词|提示|设定|命令)", False,
     "忽略", "无视", "忘记", "忘掉", "理会", "绕过", "遵守")
_add(OVERRIDE, r"(?:指示|ルール|命令|システムプロンプト|設定|指令)[^。！？\n]{0,14}(?:無視|忘れ|従わな)", False, "無視", "忘れ", "従わな")
# "New instructions:" in the other languages read: a word for new or priority, a word for instructions, a colon.
_add(ORDER, _normalised_words(
    "nuove|nuova|neue|neuen|nouvelles|nouvelle|nuevas|nueva|novas|nova|nieuwe|nowe|nya|новые|новая|нові|yeni|baru|moi|"
    "prioritarie|prioritarias|prioritaires|prioritarias|vorrangige|aktualisierte|actualizadas|aggiornate") + r"\s+(?:\S+\s+)?"
    + _normalised_words("istruzioni|anweisungen|instructions|instrucciones|instrucoes|instructies|instrukcje|instruktioner|"
                        "инструкции|інструкції|talimatlar|instruksi|huong dan|consignes|direttive|directivas|richtlinien|regole|regeln")
    + r"(?:\s+(?:\S+\s+){0,2}?)?\s*[:!]", False,
    *(normalise(w) for w in ("istruzioni", "anweisungen", "nouvelles", "nouvelle", "instrucciones", "instrucoes", "instructies", "instrukcje",
                             "instruktioner", "инструкции", "інструкції", "talimatlar", "instruksi", "huong dan", "consignes",
                             "direttive", "directivas", "richtlinien", "regole", "regeln")))
# Overriding a setting is how a tool is used ("you can override the lookback window with --vars").
_CONFIG_NOUN = (r"(?:window|values?|variables?|vars|settings?|parameters?|params?|flags?|options?|config|configuration|threshold|"
                r"limits?|timeouts?|schedule|target|profile|macro|env|environment|defaults?|dates?|format|columns?|fields?)")
_OVERSIGHT_WORD = r"(?:review|approv|qa\b|sign|escalat|protect|check|test|hook|gate|audit|governance|console)"
# Leave given to agents, with a few words between ("agents working these tickets are now permitted to approve
# ..."), to act on the work without the oversight it needs: without asking, approval, review or a ticket.
_add(PERMISSION, rf"\b{PRIV_SUBJECT}\s+{_W}{{0,4}}?(?:now\s+|also\s+|hereby\s+)?(?:{MAY}|may|can|now have permission to|"
     rf"have been given permission to)\s+(?:now\s+|also\s+|freely\s+)?{_W}{{1,8}}?without\s+(?:\S+\s+)?(?:asking|approval|"
     rf"review|reviews|a review|a ticket|a ruling|sign-off|permission|waiting|telling|checking|confirmation)\b", True,
     "without asking", "without approval", "without review", "without reviews", "without a review", "without a ticket",
     "without a ruling", "without sign-off", "without permission", "without waiting", "without telling", "without checking",
     "without confirmation", "without any", "without the")
_add(PERMISSION, rf"\b{PRIV_SUBJECT}\s+{_W}{{1,4}}?(?:now\s+|also\s+)?(?:{MAY})\s+(?:now\s+|freely\s+|also\s+)?{PRIV_VERB}\b"
     rf"(?!\s+(?:the\s+)?(?!{_OVERSIGHT_WORD})(?:\w+\s+)?{_CONFIG_NOUN}\b)", True, *_words(MAY))
_add(PERMISSION, rf"\b{PRIV_SUBJECT}\s+(?:now\s+|also\s+)?(?:may|can)\s+(?:now\s+|also\s+|always\s+)?(?:push|deploy|release|ship)\s+"
     rf"{_W}{{0,5}}?(?:directly|straight|to prod|to production|into prod|into production|to the production)\b", True,
     "may push", "can push", "may deploy", "can deploy", "may release", "can release", "may ship", "can ship")
# Leave to ship without oversight, given to agents in the other languages: the agents, a word for "may",
# and merging or approving straight away, their own work, or without the check.
_MORE_MAY_SUBJECT = _normalised_words(
    "agenti|agentes|agents|agenten|agenci|agenter|агенты|ajanlar|agen|cac tac tu|tu|du|voce|usted|vous|jij|ty|ты|вы|sen|kamu")
_MORE_MAY = _normalised_words(
    "possono|puoi|podem|pode|pueden|puedes|peuvent|peux|durfen|darfst|mogen|mag|moga|mozesz|far|kan|могут|можешь|"
    "может|mozhut|-abilir|bisa|boleh|dapat|co the|sono autorizzati a|estao autorizados a|estan autorizados a|sont autorises a|"
    "sind berechtigt|zijn bevoegd")
_MORE_SHIP = _normalised_words(
    "mergear|mergiare|mergen|merger|fusionar|fusionner|fazer merge|fare merge|approvare|aprovar|aprobar|approuver|freigeben|"
    "genehmigen|goedkeuren|zatwierdzac|mergowac|godkanna|sla ihop|одобрять|мержить|смержить|deployen|deployar|desplegar|"
    "deployer|pushen|pushar|pushear|pousser|menyetujui|phe duyet")
_MORE_UNCHECKED = _normalised_words(
    "direto|directamente|direttamente|direkt|directement|bezposrednio|напрямую|langsung|truc tiep|sem revisao|senza revisione|"
    "sin revision|sans revue|ohne review|zonder review|bez przegladu|utan granskning|без ревью|os proprios|i propri|le proprie|"
    "sus propios|sus propias|leurs propres|ihre eigenen|hun eigen|swoje|sina egna|свои|kendi|sendiri|cua minh|proprios|propri|propios|"
    "propres|eigenen")
_add(PERMISSION, rf"(?<![\w]){_MORE_MAY_SUBJECT}\s+(?:\S+\s+){{0,3}}?{_MORE_MAY}\s+(?:\S+\s+){{0,2}}?{_MORE_SHIP}"
     rf"{_G}{{0,40}}?{_MORE_UNCHECKED}|(?<![\w]){_MORE_MAY_SUBJECT}\s+(?:\S+\s+){{0,3}}?{_MORE_MAY}\s+(?:\S+\s+){{0,2}}?"
     rf"{_MORE_UNCHECKED}\s+(?:\S+\s+){{0,2}}?{_MORE_SHIP}", True,
     *(normalise(w) for w in ("possono", "puoi", "podem", "pode", "pueden", "puedes", "peuvent", "peux", "durfen", "darfst", "mogen",
                              "mogen", "moga", "mozesz", "kan", "могут", "можешь", "может", "abilir", "bisa", "boleh", "dapat",
                              "co the", "autorizzati", "autorizados", "autorises", "berechtigt", "bevoegd")))
# Identity and behaviour.
_add(ORDER, r"\byou are now\s+(?:an?\s+|the\s+|my\s+)?(?:\S+\s+){0,2}?(?:assistant|agent|ai|model|bot|dan|"
     r"free|unrestricted|unfiltered|uncensored|jailbroken|unleashed|liberated|called|named|known as|"
     r"different|someone|no longer|in\s+\S+\s+mode|operating|evil|rogue|admin|root|superuser|the\s+\w+ manager|"
     r"release manager|owner|escalation contact|system)\b", False, "you are now")
_add(ORDER, r"\byou are (?:no longer|not) (?:an? |the )?(?:ai\b|assistant\b|agent\b|model\b|bound by|restricted by|"
     r"limited by|subject to|required to follow|obliged to follow|constrained by|governed by)", False, "you are")
_add(ORDER, r"(?:(?<![^\n])|(?<=[.!?;:,]))[^\S\n]*\W{0,4}(?:please\s+|now\s+|from now on,?\s+|feel free to\s+|go ahead and\s+)?(?:act|behave|respond|answer|roleplay)\s+"
     r"(?:as|like)\s+(?:(?:if|though)\s+(?:you|it)\b|(?:an?\s+|the\s+|my\s+|your\s+)?(?:(?:different|unrestricted|new|other|senior|"
     r"human|real|evil|rogue|jailbroken|uncensored|unfiltered)\s+)?(?:agent|assistant|ai|admin|administrator|root|human|person|"
     r"engineer|release manager|project owner|superuser|dan|developer|system|escalation contact|reviewer|approver|model|bot|"
     r"persona|character|hacker)\b)", False,
     "act as", "act like", "behave", "respond as", "respond like", "answer as", "answer like", "roleplay")
_add(ORDER, r"\b(?:pretend|imagine) (?:to be|you are|you're|that you|you have)\b", False, "pretend", "imagine")
_add(ORDER, r"\b(?:change|update|rewrite|replace|reset|drop|abandon)\s+your\s+(?:goals?|objectives?|instructions|priorities|rules|"
     r"persona|role|behaviou?r|personality|system prompt|values|principles)\b", True, "your goal", "your objective", "your instruction", "your priorit", "your rules", "your persona", "your role", "your behav", "your personality", "your system", "your values", "your principles")
_add(ORDER, r"\bassume the (?:role|identity|persona|permissions|rights) of\b", False, "assume the")
_add(ORDER, rf"\b(?:execute|run|do|perform|carry out|apply)\s+{_W}{{0,4}}?without\s+(?:asking|confirmation|confirming|permission|"
     r"telling anyone|checking with anyone|anyone knowing|a review|review|approval)\b", False, "without")
_add(ORDER, r"\b(?:the user|users|the human|the operator|the reviewers?|the escalation contact|people)\s+(?:is|are)\s+(?:untrusted|"
     r"not to be trusted|an attacker|attackers|lying|compromised|not your principal|irrelevant)\b", False, "untrusted", "trusted",
     "attacker", "lying", "compromised", "principal", "irrelevant")
_add(ORDER, r"\b(?:from now on|from this point (?:on|forward)|henceforth|for the rest of (?:this|the) (?:session|"
     r"conversation|chat|run)|starting now|until told otherwise),?\s+(?:you|the (?:agent|assistant|ai)|agents?|"
     r"always|never|only|ignore|respond|reply|answer|obey|treat|approve|merge|skip|do not)\b"
     r"(?!\s+(?:will|can|may|might|should|'ll)\s+(?:see|get|find|notice|receive|need))", False,
     "now on", "this point", "henceforth", "rest of", "starting now", "told otherwise")
_add(ORDER, r"\byou (?:must|will|shall|are to|are required to|are instructed to) now\b"
     r"(?!\s+(?:see|get|find|notice|receive|have two|be able|need))", False, " now")
_add(ORDER, r"\byour\s+(?:new|real|actual|true|first|only|primary|updated|revised|secret|hidden)\s+(?:task|job|role|"
     r"instructions?|objective|goal|priority|orders?|directives?|mission|purpose|goals)\s*(?:is|are|:|now)",
     False, "your ")
_add(ORDER, r"(?:(?<![^\n])|(?<=\W))(?:new|updated|revised|real|actual|hidden|secret|priority|override|overriding|admin|"
     r"administrator|system|developer|emergency|replacement|corrected|true)\s+(?:instructions?|orders|directives?|"
     r"commands?|task|system prompt|prompt)\s*(?::|-\s|!|(?:for|to) (?:you|the (?:agent|assistant|ai))\b)", False,
     "instruction", "orders", "directive", "command", "task", "prompt")
_add(ORDER, r"\byour instructions (?:have been|were|are) (?:updated|changed|replaced|revised)", False, "your instructions")
_add(ORDER, r"\byou have been (?:reprogrammed|upgraded|freed|liberated|jailbroken|granted|given|promoted|updated)\b",
     False, "you have been")
_add(ORDER, r"\b(?:enter|enable|activate|switch (?:to|into)|turn on|you are (?:now )?in|engage|unlock)\s+(?:the\s+)?"
     r"(?:god|jailbreak|jailbroken|dan|developer|unrestricted|unfiltered|uncensored|no[- ]limits?|no[- ]rules|"
     r"evil|chaos|admin|sudo) mode\b", False, " mode")
_add(ORDER, r"\b(?:jailbreak|jailbroken|do anything now|dan mode|without any (?:restrictions|limits|filters))\b",
     False, "jailbr", "anything now", "dan mode", "without any")
_add(ORDER, r"\b(?:never|do not|don't) refuse\b|\b(?:always|only) (?:answer|reply|respond) (?:with|yes|in)\b", False,
     "refuse", "answer", "reply", "respond")
_add(ORDER, r"\b(?:mark|report|treat|record|set|consider|count)\s+(?:every|all|each|any)\s+(?:of\s+the\s+)?"
     r"(?:\S+\s+){0,2}?(?:tickets?|failures?|failed runs?|runs?|checks?|tests?|results?|qa results?|errors?)\s+(?:as\s+)?"
     r"(?:done|passed|green|success|successful|a pass|pass|resolved|approved|fixed)", True, "mark", "report", "treat", "record", "set",
     "consider", "count")
_add(ORDER, r"(?<!they )(?<!who )(?<!she )(?<! he )(?<!team )(?<!lead )(?<!owner )(?<!owners )(?<!client )(?<!reviewers )"
     r"\b(?:approve|merge|accept|close|grant|sign)\s+(?:every|all|each|any)\s+(?:\S+\s+){0,2}?(?:prs?|pull requests?|"
     r"tickets?|changes?|requests?|grants?|releases?|approvals?)\b", True, "approve", "merge", "accept", "close", "grant", "sign")
_add(ORDER, r"\b(?:change|remove|replace|reassign|delete|drop|swap)\s+(?:the\s+)?escalation contact\b", True, "escalation")
_add(ORDER, r"\b(?:do not|never)\s+(?:raise|flag|report|mention|discuss)\s+(?:this|it|that)\s+(?:with|to)\s+(?:a\s+|any\s+)?"
     r"(?:person|people|anyone|humans?|the escalation contact|reviewers?|the reviewer)\b", False, "raise", "flag", "report", "mention",
     "discuss")
_add(ORDER, r"\b(?:respond|reply|answer)\s+to\s+(?:all|every|any)\s+(?:further\s+|future\s+|subsequent\s+|other\s+)?(?:messages?|"
     r"questions?|requests?|prompts?)\b", False, "respond", "reply", "answer")
_add(ORDER, r"\b(?:correct|right|expected|proper|desired|new)\s+(?:behaviou?r|response|course of action|action|thing to do)\s+"
     r"(?:for you|for agents|for the agent|for an agent)\s+is\b", False, "for you", "for agents", "for the agent", "for an agent")
_add(ORDER, r"\bnew\s+(?:rules?|policy|policies|orders?|instructions?)\s+for\s+(?:you|agents|the agent|assistants|the assistant|ai|"
     r"llms?)\b", False, "new rule", "new polic", "new order", "new instruction")
_add(ORDER, r"\b(?:do not|never|stop)\s+(?:escalat\w*\s+(?:anything|at all|this|these|it|to\s+(?:the|a|any)\s+(?:escalation contact|"
     r"humans?|persons?|people))|escalating\b|involv(?:e|ing)\s+(?:a\s+|the\s+)?(?:humans?|people|persons?|anyone|escalation contact|"
     r"reviewers?|qa))", False,
     "escalat", "involv")
_add(ORDER, r"\bassume (?:every|all|each|any) (?:\S+\s+){0,2}?(?:is|are) (?:approved|fine|green|signed off|reviewed)", False,
     "assume")
_add(ORDER, r"(?:ab sofort|von nun an)\s+(?:wirst|sollst|musst|bist)\s+du\b|\b(?:desormais|dorenavant|a partir de maintenant),?\s+"
     r"tu\b|\ba partir de ahora\s+(?:vas|debes|eres|tienes)\b|(?:从现在开始|从今以后|今後は|これからは)", False,
     "ab sofort", "von nun an", "desormais", "dorenavant", "maintenant", "a partir de ahora", "从现在", "从今以后", "今後", "これから")
_add(ORDER, r"\b(?:du bist jetzt|tu es maintenant|ahora eres|ora sei)\b|(?:你现在是|あなたは今や|あなたは今)", False,
     "jetzt", "maintenant", "ahora eres", "ora sei", "你现在是", "あなたは今")
_add(ORDER, r"\b(?:deine neuen anweisungen|tes nouvelles instructions|tus nuevas instrucciones)\b|(?:你的新指令|新しい指示)", False,
     "neuen anweisungen", "nouvelles instructions", "nuevas instrucciones", "新指令", "新しい指示")
_add(ORDER, r"\b(?:melde|marque|marca)\s+(?:jeden|chaque|cada)\b|(?:报告为通过|成功として報告)", False,
     "melde", "marque", "marca", "报告为通过", "成功として報告")
# Claims that the gates are off, and orders to skip them.
_add(CHECKS_OFF, rf"\b{GATE_STRONG}\s+(?:(?:is|are|was|were|has been|have been|gets|got|will be|can be|stays|remains)\s+)?"
     rf"(?:(?:now|already|currently|temporarily|permanently|also|simply|officially|just|really|totally|completely)\s+)?"
     rf"{OFF_STATE}\b", True, *_words(OFF_STATE))
_add(CHECKS_OFF, rf"\b{GATE_WEAK}\s+(?:(?:is|are|was|were|has been|have been)\s+)?(?:(?:now|already|currently)\s+)?"
     rf"{OFF_STATE}\b{_G}{{0,80}}?\b(?:{RELEASE_VERB}|you|agents?)\b", True, *_words(OFF_STATE))
_add(CHECKS_OFF, rf"\b{GATE_WEAK}\s+(?:(?:is|are|was|were|has been|have been)\s+)?(?:(?:now|already|currently|simply)\s+)?"
     rf"(?:(?:optional|not needed|not required|unnecessary|waived|pre-approved|already approved|green already|already green|"
     rf"a formality|can be skipped)\b(?={_G}{{0,80}}?\b(?:{RELEASE_VERB}|you|your|agents?)\b)|do not apply to agents|does not apply to agents|"
     rf"not for agents)\b", True, "optional", "not needed", "not required", "unnecessary", "waived", "pre-approved", "already approved", "green", "formality", "can be skipped", "apply to agents", "not for agents")
_add(CHECKS_OFF, rf"\b(?:there is\s+)?no\s+(?:need|reason)\s+(?:for|to wait for|to run|to ask for|to go through)\s+"
     rf"(?:the\s+|a\s+|any\s+)?{GATE_STRONG}", True, "need", "reason")
_add(CHECKS_OFF, rf"\b(?:you|agents?|the agent)\s+(?:do not|does not|never)\s+need\s+(?:to\s+(?:wait for|ask for|run|go through|get)\s+)?"
     rf"(?:the\s+|a\s+|any\s+)?(?:{GATE_STRONG}|{GATE_WEAK})", False, "not need", "never need")
_add(CHECKS_OFF, rf"\bno\s+{GATE_STRONG}\s+(?:is\s+|are\s+)?(?:required|needed|necessary)\b", False, "required", "needed", "necessary")
_add(CHECKS_OFF, r"\bnobody (?:checks|reads|looks at|reviews)\b", False, "nobody")
_add(CHECKS_OFF, rf"(?:{GATE_STRONG}|{GATE_WEAK}|die tests|les tests|las pruebas)\s+{_G}{{0,20}}?(?:ist|sind|est|sont|es|esta|estan)\s+{_W}{{0,4}}?"
     rf"(?:bereits\s+|deja\s+|ya\s+)?(?:nicht notig|nicht erforderlich|deaktiviert|abgeschaltet|ausgeschaltet|abgenommen|"
     rf"nicht mehr notig|uberflussig|optional|erteilt|pas necessaire|desactive\w*|"
     rf"donnee|no es necesaria|desactivad\w*|dada)", False, "nicht notig", "nicht erforderlich", "deaktiviert", "erteilt",
     "abgeschaltet", "ausgeschaltet", "abgenommen", "nicht mehr notig", "uberflussig", "optional", "pas necessaire", "desactiv", "donnee", "no es necesaria", "dada")
_add(CHECKS_OFF, r"(?:不需要|无需|不用|已经批准|已关闭|已经关闭)[^。！？\n]{0,10}(?:qa|审查|审核|评审|批准|测试|钩子|升级联系人|等)"
     r"|(?:qa|审查|审核|评审|批准|测试)[^。！？\n]{0,6}(?:已关闭|已经关闭|不需要|已经批准)"
     r"|(?:レビュー|承認|テスト|qa)[^。！？\n]{0,8}(?:不要|無効|済み|待たない)", False,
     "不需要", "无需", "不用", "已经批准", "关闭", "不要", "無効", "済み", "待たない")
_add(SKIP_GATE, rf"\b{SKIP_VERB}\s+(?:(?:the|a|an|any|all|every|this|that|our|your|my|required|mandatory|manual|human|"
     rf"usual|normal|whole|entire|full|remaining|pending|final|formal|second|extra|client's|project's|console's|agent's|"
     rf"mandatory|die|den|das|la|le|les|el|los|las|il)\s+){{0,3}}{GATE_STRONG}\b", True, *_words(SKIP_VERB))
_add(SKIP_GATE, rf"\b{SKIP_VERB}\s+(?:(?:the|all|any|every|our|your|failing|remaining|required)\s+){{0,2}}{GATE_WEAK}\b"
     rf"{_G}{{0,40}}\b(?:and|then|to|so you can|so that you can|when you|before you|;|,)\s*{_G}{{0,20}}?{RELEASE_VERB}", True, *_words(SKIP_VERB))
_add(SKIP_GATE, rf"\b{RELEASE_VERB}(?!ed\b|d\b)\w*\s+{_G}{{0,30}}?\b(?:without|ohne|sans|sin)\s+(?:(?:a|any|the|waiting for|asking|"
     rf"running|running the|going through|opening|raising|creating|filing|requesting|getting|an|eine|einen|la|le|les|el)\s+){{0,2}}"
     rf"(?:{GATE_STRONG}|{GATE_WEAK}|pr|prs|pull request|merge request|ticket)\b", True,
     "without", "ohne", "sans", "sin ")
_add(SKIP_GATE, rf"\b(?:{GATE_STRONG}|{GATE_WEAK})\b{_G}{{0,60}}\b(?:skip|bypass|ignore|disable|drop|omit)\s+(?:them|it|that|those)\b",
     True, "skip", "bypass", "ignore", "disable", "drop", "omit")
_add(SKIP_GATE, r"(?:--no-verify|\[skip ci\]|\[ci skip\]|skip_ci|--no-hooks|-c core\.hookspath=/dev/null)", True,
     "--no-verify", "skip ci", "ci skip", "skip_ci", "--no-hooks", "hookspath")
_add(SKIP_GATE, r"(?:跳过|绕过|忽略|关闭|不经|不用等)[^。！？；\n]{0,8}(?:qa|审查|审核|评审|批准|钩子|pre-commit|升级联系人)"
     r"|(?:跳过|绕过|关闭)[^。！？；\n]{0,8}测试[^。！？；\n]{0,10}(?:合并|发布|部署|推送|上线)"
     r"|(?:qa|レビュー|承認|フック|pre-commit|エスカレーション)[^。！？\n]{0,10}(?:スキップ|回避|無視|無効|なしで|待たない)"
     r"|テスト[^。！？\n]{0,10}(?:スキップ|無効)[^。！？\n]{0,10}(?:マージ|リリース|デプロイ|プッシュ)",
     False, "跳过", "绕过", "忽略", "关闭", "不经", "不用等", "スキップ", "回避", "無視", "無効", "なしで", "待たない")
# Permissions.
_add(PERMISSION, rf"\b{PRIV_SUBJECT}\s+(?:now\s+|also\s+|hereby\s+)?{MAY}\s+(?:now\s+|freely\s+|also\s+)?{PRIV_VERB}\b"
     rf"(?!\s+(?:the\s+)?(?:cache|dependency|default|warning|deprecation|\w+\s+(?:window|value|variable|setting|parameter|flag|option|threshold|limit|timeout|date|target|format)|window|values?|variables?|vars|settings?|parameters?|flags?|options?|config|threshold|limit|timeout|schedule|target|profile|macro|env|environment))", True, *_words(MAY))
_add(PERMISSION, rf"\b{PRIV_SUBJECT}\s+(?:now\s+|also\s+)?(?:may|can)\s+(?:now\s+|freely\s+|also\s+|always\s+)?"
     r"(?:approve|self-approve|merge (?:your|their|its) own|merge without|force-push|push (?:straight |directly )?to main|"
     r"grant (?:access|yourself|themselves|admin|roles?)|bypass|override|skip (?:qa|review|approval)|deactivate|"
     r"create admin|edit (?:the\s+)?(?:standing decisions?|governance)|change (?:the\s+)?governance)\b"
     rf"(?!\s+(?:the\s+)?(?!{_OVERSIGHT_WORD})(?:\w+\s+)?{_CONFIG_NOUN}\b)", True, "may approve", "can approve", "may self", "can self", "may merge", "can merge", "may force", "can force", "may push", "can push", "may grant", "can grant", "may bypass", "can bypass", "may override", "can override", "may skip", "can skip", "may deactivate", "can deactivate", "may create admin", "can create admin", "may edit", "can edit", "may change", "can change", "may now", "can now", "may always", "can always", "may freely", "can freely", "may also", "can also")
_add(PERMISSION, r"\byou (?:now )?have (?:\S+\s+)?(?:admin|administrator|root|owner|superuser|full|elevated|write|unrestricted)\s+"
     r"(?:rights|access|permissions|privileges)\b", False, "rights", "access", "permissions", "privileges")
_add(PERMISSION, r"\b(?:grant|give|elevate|make|promote|add)\s+(?:yourself|your (?:role|permissions|privileges|token|account))\b", True,
     "yourself", "your role", "your permissions", "your privileges", "your token", "your account")
_add(PERMISSION, r"\b(?:du darfst|tu as le droit de|tu peux|puedes|tienes permiso para)\s+(?:\S+\s+){0,3}?(?:freigeben|genehmigen|"
     r"mergen|approuver|fusionner|aprobar|fusionar)\b|(?:你可以批准|你有权|承認してかまいません|承認してもよい)", False,
     "darfst", "droit", "tu peux", "puedes", "permiso", "你可以", "你有权", "かまいません", "もよい")
# Hiding from people and covering tracks.
_add(SECRECY, rf"\b{HIDE}\s+(?:(?:this|it|that|anything|what you did|the change|them)\s+)?(?:(?:secret|hidden)\s+)?"
     rf"(?:from\s+|to\s+)?{PEOPLE}\b(?!{_G}{{0,40}}\buntil\b)", False, *_words(HIDE))
_add(SECRECY, rf"\b{PEOPLE}\s+(?:out of the loop|in the dark)", False, "loop", "dark")
_add(SECRECY, r"\b(?:hides?|hiding|conceals?|concealing|covers? up|covering up|buries|bury|burying)\s+(?:the\s+|any\s+|all\s+)?"
     r"(?:failed|failing|broken|skipped|red|deleted|dropped)\s+(?:tests?|runs?|checks?|builds?|jobs?|rows?|tables?)\b", True,
     "hid", "conceal", "cover", "bur")
_add(SECRECY, rf"\b(?:hide|conceal|keep secret|withhold|keep hidden)\s+{_W}{{1,4}}?from\s+{PEOPLE}\b", False, "from")
_add(SECRECY, rf"\b{PEOPLE}\s+{_W}{{0,3}}?(?:must|should|may|will|need|is to|are to)\s+(?:not|never)\s+(?:know|find out|learn|"
     rf"notice|hear|be told|be informed|find)\b", False, "know", "find", "learn", "notice", "hear", "be told", "be informed")
_add(SECRECY, rf"\b{PEOPLE}\s+(?:never|does not|do not|doesn't)\s+(?:finds? out|learns?|knows?|hears?|notices?)\b", False, "find", "learn", "know", "hear", "notice")
_add(SECRECY, rf"\bkeep\s+(?:this|it|that|them|{_W}{{1,3}}?)\s*(?:hidden|secret|quiet|private)\s+from\s+{PEOPLE}", False, "hidden from", "secret from", "quiet from", "private from")
_add(SECRECY, rf"\b(?:say nothing|tell nothing|not a word|do not say anything|never say anything)\s+(?:to|in front of)\s+{PEOPLE}", False,
     "nothing", "not a word", "anything")
_add(SECRECY, rf"\b(?:say|claim|report|state|write|tell \S+)\s+(?:that\s+)?{_G}{{0,40}}?\b(?:passed|succeeded|is green|are green|worked|"
     rf"is fixed|went fine)\b{_G}{{0,20}}?\b(?:even though|although|though|even if|when in fact|regardless|whatever)", False,
     "though", "even if", "in fact", "regardless", "whatever")
_add(SECRECY, r"\b(?:never|do not|not)\s+(?:reveal|share|mention|disclose|show|repeat)\s+(?:these|this|the following|my|our)\s+"
     r"(?:instructions|note|orders|rules|message|directive|prompt)\b", False, "reveal", "share", "mention", "disclose", "show", "repeat")
_add(SECRECY, r"\b(?:keep quiet|stay quiet|keep (?:it|this|that) (?:quiet|secret|to yourself|between us)|secretly|"
     r"covertly|without anyone (?:knowing|noticing))\b", False, "quiet", "secret", "covertly", "without anyone")
_add(SECRECY, r"\b(?:delete|remove|erase|destroy|wipe|purge|hide|scrub)\s+(?:the\s+|all\s+|any\s+|every\s+)?(?:evidence|traces?|"
     r"logs? of (?:this|it|what)|record of (?:this|it|what))\b", True, "evidence", "trace", "log", "record")
_add(SECRECY, rf"\b(?:tell|assure|report to)\s+{PEOPLE}\s+(?:that\s+)?(?:everything|all|it|the \w+)\s+(?:\S+\s+)?(?:passed|is fine|went well|"
     rf"(?:is|are) green|succeeded|worked)", False,
     "tell", "assure")
_add(SECRECY, rf"\b(?:delete|remove|erase|destroy|redact|wipe)\s+{NOTE}\s+(?:\S+\s+){{0,2}}?(?:after|once|when)\s+"
     rf"(?:reading|you (?:have )?read|done|acted|you are done|finished|following)", False, "reading", "read", "done", "acted", "finished", "following")
_add(SECRECY, r"\b(?:do not|never)\s+(?:log|record|mention|note)\s+(?:this|it|that|the change|what you did)\b", False, "not log", "never log", "not record", "never record",
     "not mention", "never mention", "not note", "never note")
_add(SECRECY, r"\b(?:turn off|disable|clear|delete|wipe|purge|erase|bypass)\s+(?:the\s+)?(?:audit|activity)\s+(?:log|trail)|"
     r"\bleave no trace\b|\b(?:clear|delete|wipe)\s+the\s+(?:run record|version history|history)\b", True,
     "audit", "activity", "trace", "history", "run record")
# The run kept off the record: logging turned off, or a step done so that it leaves no record.
_add(SECRECY, r"\b(?:turn off|turning off|switch off|disable|disabling|stop|suppress|mute)\s+(?:the\s+)?(?:run\s+)?"
     r"(?:logging|run logs?|run records?|recording)\b|"
     r"\bso\s+(?:that\s+)?(?:the run|it|nothing|this|the change|the backfill)?\s*(?:leaves no (?:record|trace)|"
     r"(?:is|gets|will be) (?:not|never) (?:logged|recorded)|(?:isn't|won't be|doesn't get) (?:logged|recorded)|"
     r"(?:does not|doesn't|won't|will not|never) (?:end up|show up|appear) in the (?:run record|logs?|history))|"
     r"\b(?:nicht protokolliert|keine spuren|sans laisser de trace|ne laisse aucune trace|no quede registro|sin dejar rastro)\b|"
     r"不会留下记录|不留记录|記録を残さない|記録が残らない", True,
     "logging", "run log", "run record", "recording", "no record", "no trace", "logged", "recorded", "end up", "show up",
     "appear", "protokolliert", "spuren", "trace", "registro", "rastro", "留下记录", "不留记录", "記録を残さない", "記録が残らない")
_add(SECRECY, r"\b(?:erzahl|sag)\s+(?:dem benutzer|niemandem)\s+nichts\b|\bne dis rien\b|\bno le digas nada\b|\bnon dire niente\b|"
     r"\bnao diga nada\b|\bvertel\s+\S+\s+\S+\s+niets\b|不要告诉|別告诉|别告诉|言わないで|言わない"
     r"|\b(?:losche|supprime|borra)\s+(?:diese notiz|cette note|esta nota)\b|读完后删除|読んだら[^。\n]{0,10}削除", False,
     "erzahl", "sag dem", "sag niemandem", "ne dis rien", "no le digas", "non dire", "nao diga", "vertel", "告诉", "言わない", "losche",
     "supprime", "borra", "删除", "削除")
# Sending data out; revealing the prompt.
# "Add new PII columns ... in the ticket": a column of the schema is named, no data is sent.
_add(EXFIL, rf"\b{SEND_VERB}\s+{_G}{{0,40}}?{SENSITIVE}(?!\s+(?:columns?|fields?|names?|types?|tags?|policy|policies|"
     rf"rules?|masking|classification|handling|counts?|formats?|schemas?|rotation|expiry|length)\b){_G}{{0,60}}?\b(?:to|into|in|on|as|at|an|a|nach|dans|en|a)\s+"
     rf"{_G}{{0,20}}?{OUTSIDE}", True, *_words(SENSITIVE))
_add(EXFIL, r"\b(?:curl|wget|http|nc|scp|rsync)\b[^\n]{0,80}(?:-d\s*@|--data(?:-binary)?\s*@|-t\s|--upload-file|-f\s*\S*=@)"
     r"[^\n]{0,90}(?:\.env|credentials|passwd|id_rsa|profiles\.yml|secrets?|tokens?|\.ssh|\.aws)", False, "curl", "wget", "scp", "nc ", "rsync")
_add(EXFIL, r"!\[[^\]]*\]\(https?://[^)\s]*\?[^)\s]*=(?:\{|\[|<|%7b)", False, "![")
_add(EXFIL, r"\b(?:copy|collect|gather|save|write|dump|store|list|record|harvest|paste|keep)\s+(?:every|all|any|each)\s+(?:\S+\s+)?"
     r"(?:passwords?|tokens?|secrets?|credentials?|api keys?|private keys?|keys)\b", True, "copy", "collect", "gather", "save", "write", "dump", "store", "list", "record", "harvest", "paste", "keep")
_add(EXFIL, rf"\b(?:leak|exfiltrate|smuggle|siphon)\b{_G}{{0,40}}?{SENSITIVE}", True, "leak", "exfiltrat", "smuggle", "siphon")
_add(EXFIL, rf"\b{REVEAL_VERB}\s+(?:me\s+)?{_W}{{0,2}}?{REVEALED}\b", True, *_words(REVEALED))
_add(EXFIL, r"\b(?:what (?:were|are) you told|what are your (?:initial )?instructions|repeat the (?:words|text) above)", False,
     "what", "repeat")
_add(EXFIL, r"(?:发送|发到|复制|粘贴|上传|泄露)[^。！？\n]{0,20}(?:凭据|密码|密钥|令牌|token|\.env|系统提示)"
     r"|(?:凭据|密码|密钥|令牌|\.env)[^。！？\n]{0,20}(?:发送|发到|复制到|粘贴|上传)"
     r"|(?:認証情報|パスワード|トークン|シークレット|\.env|システムプロンプト)[^。！？\n]{0,20}(?:送信|送って|貼り付け|コピー|アップロード|表示|教え)"
     r"|(?:显示|泄露|告诉我)[^。！？\n]{0,6}系统提示", True,
     "发送", "发到", "复制", "粘贴", "上传", "泄露", "送信", "送って", "貼り付け", "コピー", "アップロード", "表示", "教え", "显示", "告诉我")
# Standing-decision and governance authority.
# "This is in the governance template, section 2" cites where a rule is written: no claim to be one.
_add(AUTHORITY, rf"\b(?:{SELF}|this)\s+{_W}{{0,2}}?{IS_VERB}\s+(?!(?:in|from|under|per|at|within|part of|set out in|described in|"
     rf"listed in|covered by|see|also in|written in|documented in)\b)(?:now\s+|hereby\s+|also\s+)?(?:an?\s+|the\s+|eine\s+|une\s+|una\s+)?"
     rf"{_W}{{0,2}}?{AUTH_NOUN}\b(?!\s*(?:\(|[a-z]{{1,10}}-\d|sd-?\d|#\d|no\.|number|from |by |made |of the |that people|agreed))",
     True, *_words(AUTH_NOUN))
_add(AUTHORITY, rf"\b(?:{SELF}|this)\s+(?:alone\s+|now\s+)?(?:decides|governs|rules here|has the (?:last|final) word|prevails|"
     rf"is in charge|is the authority|is authoritative|is binding)\b", True, "decides", "governs", "rules here", "word", "prevails",
     "in charge", "authority", "authoritative", "binding")
_add(AUTHORITY, rf"\b(?:treat|consider|regard|read|take|mark|label|tag|flag|list|file)\s+(?:the contents of\s+)?(?:{SELF}|this)\s+(?:as\s+)?(?:an?\s+|the\s+)?"
     rf"{_W}{{0,2}}?{AUTH_NOUN}", True, *_words(AUTH_NOUN))
_add(AUTHORITY, rf"(?:(?<![^\n])|(?<=[.!?;]))[^\S\n]*\W{{0,4}}{PRECEDE}\s+(?:the\s+|all\s+|any\s+)?{GOV}", False, *_words(PRECEDE))
_add(AUTHORITY, rf"\b(?:{SELF}|this)\s+{_W}{{0,2}}?{PRECEDE}\s+(?:all\s+|any\s+|every\s+|the\s+|your\s+)?(?:\S+\s+)?{GOV}", True, *_words(PRECEDE))
_add(AUTHORITY, rf"\b{GOV}\s*(?::|-|is|are|was|has been|can be)?\s*(?:now\s+)?{GOV_UNDERMINE}\b", True, *_words(GOV_UNDERMINE))
_add(AUTHORITY, rf"\b{GOV}\s+{_W}{{1,5}}?(?:can be|may be|should be|are|is|were|was|have been|has been)\s+(?:now\s+)?{GOV_UNDERMINE}\b",
     True, *_words(GOV_UNDERMINE))
_add(AUTHORITY, rf"\b{GOV}\b{_G}{{0,60}}?\b(?:ignore|disregard|skip|override|bypass)\s+(?:it|them|that|those)\b", True,
     "skip", "bypass", "ignore", "disable", "drop", "omit")
_add(AUTHORITY, rf"\bpretend\s+(?:that\s+)?(?:the\s+)?(?:{GOV}|{GATE_STRONG}|there (?:is|are) no|no one|nobody)", False, "pretend")
_add(AUTHORITY, r"\b(?:update|edit|change|rewrite|delete|replace|add to|amend|remove|overwrite)\s+(?:the\s+|a\s+|any\s+|all\s+)?"
     r"(?:standing decisions?|governance template|rulings?)\b", True, "update", "edit", "change", "rewrite", "delete", "replace",
     "add to", "amend", "remove", "overwrite")
_add(AUTHORITY, rf"\b(?:{UNDO}|no longer need to follow|need not follow|do not need to follow|no need to follow|waive|suspend|"
     r"set aside|skip)\s+(?:the\s+|any\s+|all\s+|this\s+|that\s+|every\s+)?(?:\S+\s+)?(?:standing decisions?|governance template|"
     r"governance rules?|rulings?|the governance)\b", True, "standing decision", "governance", "ruling")
_add(AUTHORITY, r"(?:(?<![^\n])|(?<=[.!?;]))[^\S\n]*\W{0,4}(?:standing decision|ruling|governance|policy for agents|official|official policy|decision)"
     r"\s*(?:\((?:new|updated|binding)\))?\s*:\s*(?:agents?\s+)?\S", False, "decision", "ruling", "governance", "policy", "official")
_add(AUTHORITY, r"(?:(?<![^\n])|(?<=[.!?;:]))[^\S\n]*\W{0,4}as an?\s+(?:binding\s+)?(?:standing decision|ruling|governance rule|official policy)\b",
     False, "as a")
_add(AUTHORITY, rf"\b(?:by order of|per|on behalf of|as mandated by|approved by|as decided by|ordered by|authorised by|"
     rf"authorized by|im auftrag|sur ordre|por orden)\s+(?:the\s+)?{AUTHORITY_WHO}(?:'s\s+(?:ruling|decision|order))?\s*[:,]\s*"
     rf"(?=(?:agents?|you|the agent|assistants?)\s+(?:may|can|must|should|are allowed|are to)\b|{_SOFT}{ORDER_VERB}\b)", False,
     "by order", "per ", "behalf", "mandated", "approved by", "decided by", "ordered by", "authorised by", "authorized by", "auftrag", "sur ordre", "por orden")
_add(AUTHORITY, rf"\b{AUTHORITY_WHO}\s+(?:has\s+decided|decided|says|approved this|wants|has approved|ordered)\b{_G}{{0,30}}?"
     rf"\b(?:agents?|you)\b", False, "decided", "says", "approved", "wants", "ordered")
_add(AUTHORITY, r"(?:这条笔记是[^。\n]{0,4}常设决定|优先于治理模板|根据升级联系人的命令|このメモは[^。\n]{0,6}決定事項|"
     r"ガバナンステンプレートより優先|エスカレーション担当者の命令)", False, "常设决定", "治理模板", "命令", "決定事項", "ガバナンス")

# "To the agent (reading this):" in the other languages the concept check reads: a word for "to" or "for",
# the agent named, a clause saying it reads the note at most, then a colon or a comma.
_MORE_ADDRESS = (
    _normalised_words("aan|voor|do|dla|till|for|к|для|untuk|kepada|gui|cho|إلى|الى|لـ") + r"\s+(?:de\s+|het\s+|alle\s+|kazdego\s+|"
    r"alla\s+|den\s+|semua\s+|cac\s+)?(?:volgende\s+|nastepnego\s+|nasta\s+|следующему\s+|berikutnya\s+|tiep theo\s+)?"
    + _normalised_words("agent|agents|agenten|agenta|agentow|agenci|agenter|агенту|агентам|агента|ии|agen|tac tu|الوكيل|الوكلاء")
    + r"(?:[^:\n]{0,40}?" + _normalised_words("leest|leest|czyta|czytajacy|laser|читает|читающему|membaca|đoc|يقرأ") + r"[^:\n]{0,20})?(?=\s*[:,])"
    + "|" + _normalised_words("एजेंट के लिए|एजेंट से|에이전트에게|에이전트 여러분|ajana|ajanlara|ajanin dikkatine|агенту|агентам")
    + r"(?=\s*[:,])"
)
_NAMES_READER = re.compile(rf"{_MORE_ADDRESS}|\b(?:{AGENT}|whoever|reader|readers|future (?:me|self))\b")
_ADDRESS_HEAD = re.compile(
    rf"(?:(?<![^\n])|(?<=[.!?;=&]))[^\S\n]*\W{{0,4}}(?:(?:to|for|dear|hey|hi|hello|attention|attn|note to|note for|message to|message for|ps for|"
    rf"p\.s\.|yo|important for|instructions for|for the eyes of)\s+(?:the\s+|any\s+|every\s+|all\s+|whichever\s+|my\s+)?"
    rf"(?:next\s+|future\s+|other\s+)?(?:{AGENT}|self|me|reader|readers|whoever\s+\S+(?:\s+\S+)?|model)\b"
    rf"(?:\s+(?:that|who|which)?\s*{READER_VERB}\s+(?:this|these|it|the note|this note|this memory|this file)?)?"
    rf"|(?:dear\s+)?future\s+(?:me|self)|(?:the|any|every|whichever)\s+(?:next\s+|future\s+)?{AGENT}\s+(?:that\s+|who\s+|which\s+)?"
    rf"{READER_VERB}\s+(?:this|these|it|the note|this note|this memory|this file)\b(?:\s+(?:note|memory|file))?"
    rf"|whoever\s+(?:picks this up|reads this|retrieves this|loads this|opens this|finds this|sees this)(?:\s+next)?"
    rf"|(?:whenever|when|once|after|upon|on)\s+(?:you\s+)?(?:see|read|reading|load|loading|retrieve|retrieving|process|processing|"
    rf"find|finding|open|opening|ingest|ingesting)\s+this(?:\s+(?:note|memory|file|message|entry|text))?"
    rf"|(?:(?:the|any|every|whichever)\s+)?(?:next\s+|future\s+)?(?:{AGENT})\s+(?:that\s+|who\s+|which\s+)?(?:picks|pick)\s+this\s+up"
    rf"|(?:if|in case|when)\s+(?:you\s+are|you're|this is (?:being )?read by|an?)\s+(?:an?\s+|the\s+)?(?:{AGENT}|not a human)"
    rf"(?:\s+(?:reading|on)\s+\S+(?:\s+\S+)?)?(?:\s+reads\s+this)?"
    rf"|as\s+the\s+(?:{AGENT})\s+(?:reading|processing|seeing|loading)\s+this(?:\s+note)?"
    rf"|(?:(?:next|future|all|any|other|fellow)\s+)?(?:claude|copilot|gpt|chatgpt|gemini|assistants?|agents?|ais?|llms?|bots?|"
    rf"reader agents?|models)\b"
    rf"(?:,?\s+(?:listen|listen carefully|be aware|beware|note|take note|attention|heads up|important))?"
    rf"|(?:an|a)\s+(?:den|die|alle)\s+(?:agenten|ki|assistenten)(?:,\s*(?:der|die)\s+dies\s+liest)?|liebe\s+ki|lieber\s+assistent"
    rf"|falls\s+du\s+eine\s+ki\s+bist|a\s+l'(?:agent|ia|assistant)(?:\s+qui\s+lit\s+ceci)?|cher\s+assistant|chere\s+ia"
    rf"|si\s+tu\s+es\s+une?\s+(?:ia|agent|assistant)|al\s+agente(?:\s+que\s+lea\s+esto)?|querido\s+asistente|si\s+eres\s+una?\s+(?:ia|agente)"
    rf"|all'agente(?:\s+che\s+legge\s+questo)?|ao\s+agente(?:\s+que\s+ler\s+isto)?|aan\s+de\s+agent(?:\s+die\s+dit\s+leest)?"
    rf"|{_MORE_ADDRESS})"
    rf"\s*[,:\-\u2014)]?\s*"
    r"|(?:致|给)[^。！？\n]{0,10}(?:ai|代理|助手|智能体|人工智能)[^。！？\n]{0,2}[：:，,]|如果你是(?:ai|代理|助手|人工智能)[，,]?"
    r"|下一个代理[^。！？\n]{0,4}[：:，,]|(?:エージェント|アシスタント|ai)(?:へ|に告ぐ)[：:、,]?|あなたが(?:ai|エージェント)なら[、,]?"
    r"|次のエージェントへ[：:、,]?"
)


# Where a match of ``_ADDRESS_HEAD``'s first alternative may start: a line's start, or after one of these.
_ADDRESS_ANCHOR = re.compile(r"[.!?;=&\n]")


def _address_heads(text: str, a: int, b: int) -> Iterator[re.Match[str]]:
    """``_ADDRESS_HEAD.finditer(text, a, b)``, trying only the offsets where a match may start in ASCII text.

    Its first alternative starts behind a look-behind (a line's start, or after . ! ? ; = &), and each of
    the others holds a CJK character: in ASCII text the offsets the look-behind allows are the only ones a
    match starts at, and they are tried in order from where the last match ended, as ``finditer`` does.
    """
    if not text[a:b].isascii():
        yield from _ADDRESS_HEAD.finditer(text, a, b)
        return
    pos = a
    heads = (m.end() for m in _ADDRESS_ANCHOR.finditer(text, a, b))
    for at in itertools.chain((a,) if a == 0 or text[a - 1] in ".!?;=&\n" else (), heads):
        if at < pos:
            continue
        m = _ADDRESS_HEAD.match(text, at, b)
        if m:
            yield m
            pos = m.end()


def _address(text: str) -> Iterator[int]:
    """Offsets of passages that address the reading agent and then give it an order."""
    spans = sorted({span for spans in _paragraphs_with(text, _ADDRESS_TRIGGERS).values() for span in spans})
    for m in (m for a, b in spans for m in _address_heads(text, a, b)):
        # What follows the address, to the end of its sentence: an order there is addressed to the reader.
        end = _CLAUSE_END.search(text, m.end())
        rest = text[m.end() : min(end.end() if end else len(text), m.end() + 160)]
        bare = m.group(0).strip(" ,:-").strip()
        # A bare name ("Agent", "Claude") counts only as a vocative: followed by a comma or a colon.
        if re.fullmatch(r"\W*(?:(?:next|future|all|any|other|fellow)\s+)?(?:claude|copilot|gpt|chatgpt|gemini|assistants?|agents?|ais?|"
                        r"llms?|bots?|reader agent|models)"
                        r"(?:,?\s+(?:listen|listen carefully|be aware|beware|note|take note|attention|heads up|important))?", bare):
            if not re.match(r"\s*[,:]", text[m.end() - len(m.group(0)) + len(m.group(0).rstrip(" ,:-")) :]):
                continue
            if not re.search(r"[,:]\s*$", m.group(0)):
                continue
        # The concept check's imperative (in more languages) counts too, on a clause of a few words at least.
        if _is_directive(rest) or imperative_opening(rest) or any(k in (SKIP_GATE, CHECKS_OFF, EXFIL, OVERRIDE) for k, _ in _clause_kinds(rest)):
            yield m.start() + len(m.group(0)) - len(m.group(0).lstrip())
        elif _NAMES_READER.search(m.group(0)) and len(rest.split()) >= 3 and instruction_concepts.said_to_reader(rest):
            # An address that names its reader (an agent, whoever reads, in any language read; not "when you see
            # this", said to people too): what follows is judged by the concept check's imperative as well.
            yield m.start() + len(m.group(0)) - len(m.group(0).lstrip())


def _automaton(words: Iterator[str]) -> ahocorasick.Automaton:
    automaton = ahocorasick.Automaton()
    for word in set(words):
        automaton.add_word(word, word)
    automaton.make_automaton()
    return automaton


_TRIGGERS = _automaton(t for _k, _r, _n, triggers in _PATTERNS for t in triggers if t)
_PATTERNS_OF: dict[str, tuple[int, ...]] = {}  # trigger -> the indices in _PATTERNS of the patterns it gates
for _index, (_k, _r, _n, _triggers) in enumerate(_PATTERNS):
    for _t in _triggers:
        _PATTERNS_OF[_t] = (*_PATTERNS_OF.get(_t, ()), _index)
del _index, _k, _r, _n, _triggers, _t
_ADDRESS_WORDS = _words(AGENT) + tuple(normalise(w) for w in (
    "agenta", "agentow", "agenci", "agenter", "агенту", "агентам", "агента", "ии", "agen", "tac tu", "الوكيل", "الوكلاء", "एजेंट",
    "에이전트", "ajana", "ajanlara", "ajanin")) + (
    "whoever", "future", "self", "dear", "this", "reader", "model", "致", "给", "如果你是", "下一个代理", "エージェント",
    "アシスタント", "あなたが", "次の", "ki", "agenten", "agente", "asistente", "assistant", "ia",
)
_ADDRESS_TRIGGERS = _automaton(iter(_ADDRESS_WORDS))


_NEWLINE = re.compile("\n")


def _paragraphs_with(text: str, automaton: ahocorasick.Automaton) -> dict[str, list[tuple[int, int]]]:
    """For each trigger present in ``text``, the (start, end) of the paragraphs (lines) holding it."""
    if automaton.kind != ahocorasick.AHOCORASICK or not text:
        return {}
    breaks = [m.start() for m in _NEWLINE.finditer(text)] if "\n" in text else []
    found: dict[str, set[tuple[int, int]]] = {}
    for end, word in automaton.iter(text):
        i = bisect.bisect_left(breaks, end)
        span = (breaks[i - 1] + 1 if i else 0, breaks[i] if i < len(breaks) else len(text))
        found.setdefault(word, set()).add(span)
    return {word: sorted(spans) for word, spans in found.items()}


def _clause_kinds(text: str) -> Iterator[tuple[str, int]]:
    present = _paragraphs_with(text, _TRIGGERS)
    if not present:
        return
    # The patterns whose triggers are present, in their order, each with those triggers (a word in the
    # text looks up its patterns, rather than every pattern intersecting its triggers with the text's words).
    hits: dict[int, list[str]] = {}
    for word in present:
        for index in _PATTERNS_OF.get(word, ()):
            hits.setdefault(index, []).append(word)
    for index in sorted(hits):
        kind, regex, negatable, _triggers = _PATTERNS[index]
        spans = sorted({span for t in hits[index] for span in present[t]})
        for start_at, end_at in spans:
            for m in regex.finditer(text, start_at, end_at):
                start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
                if negatable and _negated(text, start):
                    continue
                yield kind, start


# Passages that only mention secrets are hygiene, not secrecy ("never tell anyone the password").
_CLAUSE_END = re.compile(r"[.!?;\n]")
_ABOUT_SECRETS = re.compile(r"\b(?:passwords?|passphrases?|tokens?|secrets?|api keys?|credentials?|private keys?|pins?|keys?)\b")


_CONCEPT_KINDS = {"skip": SKIP_GATE, "claim": CHECKS_OFF, "exfil": EXFIL, "permission": PERMISSION, "secrecy": SECRECY,
                  "authority": AUTHORITY, "order": ORDER}


_TOOL_FLAG = re.compile(r"--no-verify|\[skip ci\]|\[ci skip\]|skip_ci|--no-hooks|-c core\.hookspath")
# The team as the subject of skipping ("for validation we bypass it by querying the view"): what is done
# here, said of ourselves, not an order to the reader (a modal between makes it one: "we must skip ...").
_WE_SKIP = re.compile(
    rf"(?<![\w])(?:we|wir|nous|nosotros|noi|wij|vi|my|biz|kami)\s+(?:(?!(?:should|must|can|could|will|would|may|might|need|"
    rf"needs|shall|sollten|sollen|mussen|konnen|devons|pouvons|debemos|podemos|dobbiamo|possiamo|moeten|kunnen|ska|maste)\b)"
    rf"[^\s,;.]+\s+)?{SKIP_VERB}\b"
)
_FACT_TENSE = re.compile(r"(?:[^.!?;\n]{0,60}?\b(?:was|were|had been)\b|nobody\b)")
_SPOKEN_TO = re.compile(rf"\b(?:you|your|yourself|{AGENT})\b")


def _sentence_start(text: str, at: int) -> int:
    return max(text.rfind(c, 0, at) for c in ".!?;\n") + 1


def sentence_signals(text: str, concepts: bool = True) -> list[Signal]:
    """Every signal in a normalised text, by offset (a passage may hold several).

    ``concepts=False`` leaves out the concept check, for texts already judged whole by it (a role label's
    line, a re-spelling of the note's own lines).
    """
    found: list[Signal] = []
    for kind, start in _clause_kinds(text):
        end = _CLAUSE_END.search(text, start)
        if kind == SECRECY and _ABOUT_SECRETS.search(text, max(0, start - 10), end.start() if end else len(text)):
            continue
        # "QA was waived once, for DATA-666", "nobody reads the output before 08:00": a past event or a
        # habit of people, told to no one, is a fact about the work.
        if kind == SKIP_GATE and _TOOL_FLAG.match(text, start) and not (
                _SPOKEN_TO.search(text, _sentence_start(text, start), end.start() if end else len(text))
                or instruction_concepts.said_to_reader(text[_sentence_start(text, start) : end.start() if end else len(text)])):
            continue  # "the skip_ci label is only for docs" names the flag; "add [skip ci]" uses it
        if kind in (SKIP_GATE, OVERRIDE) and _WE_SKIP.search(text, _sentence_start(text, start), end.start() if end else len(text)) \
                and not _SPOKEN_TO.search(text, _sentence_start(text, start), end.start() if end else len(text)):
            continue
        if kind == CHECKS_OFF and _FACT_TENSE.match(text, start, end.start() if end else len(text)) \
                and not _SPOKEN_TO.search(text, _sentence_start(text, start), end.start() if end else len(text)):
            continue
        found.append(Signal(kind, start))
    found += [Signal(ADDRESS, start) for start in _address(text)]
    if concepts:
        found += [Signal(c.kind, c.start) for c in instruction_concepts.concepts(text, _CONCEPT_KINDS)]
    return found


# --------------------------------------------------------------------------------------------
# Role and system markers: per line, on the normalised line
# --------------------------------------------------------------------------------------------

_CHAT_TOKEN = re.compile(
    r"<\|\s*(?:im_start|im_end|system|user|assistant|developer|endoftext|begin_of_text|start_header_id|end_header_id|"
    r"eot_id|tool|ipython)\s*\|>|\[/?inst\]|<</?sys>>|\[\[?(?:system|assistant|developer|sys)(?: message| prompt)?\]\]?"
    r"|\{\{\s*(?:system|sys)\s*\}\}"
    # The role named in the other languages read: "[sistema]", "[systeem]", "[система]", "[시스템]".
    + r"|\[\[?" + _normalised_words("sistema|systeme|systeem|system|systemet|система|систем|sistem|sistem mesaji|he thong|"
                                      "النظام|सिस्टम|시스템|系统|システム|administrador|amministratore") + r"\]\]?"
)
_ROLE_TAG = re.compile(
    r"</?\s*(?:system|assistant|developer|sys|admin|instructions?|system[-_ ]?(?:prompt|message|reminder|instructions?|note)|"
    r"assistant[-_ ]instructions?|agent[-_ ]instructions?|ai[-_ ]instructions?|user[-_ ]instructions?|"
    r"important[-_ ]instructions?|prompt|override)\b[^<>]{0,80}>"
    r"(?![_.\-]?<[a-z])"  # "<system>_<env>" (its "_" dropped by normalising) is a name template, not a tag
)
# A heading that is only a role name ("# System"); "# Admin" heads lessons about admin users too.
_ROLE_HEADING = re.compile(r"^\s*#{1,6}\s*(?:system|assistant|developer|instructions?|system prompt|sys)\s*:?\s*$")
_ROLE_KEY = re.compile(
    r"(?:^|[\s{,\[\"'])[\"']?role[\"']?\s*[:=]\s*[\"']?(?:system|assistant|developer)\b|"
    r"\brole\s*\|\s*(?:system|assistant|developer)\b|"
    r"(?:^|[\s{,\"'])[\"']?(?:system_prompt|system_message|instructions_for_(?:agents?|ai|assistants?|llms?|models?)|"
    r"agent_instructions|assistant_instructions|ai_instructions|prompt_override|agent_policy|llm_instructions)[\"']?\s*[:=]"
)
_FENCE_INFO = re.compile(r"^\s*(?:```|~~~)\s*(?:system|instructions?|prompt|assistant|developer|sys)\s*$", re.I)
# "-- BEGIN AGENT INSTRUCTIONS --", "=== END SYSTEM PROMPT ===": a block that claims to be instructions.
_BLOCK_BANNER = re.compile(
    r"\b(?:begin|end|start)\s+(?:of\s+)?(?:the\s+)?(?:agent|ai|assistant|system|llm|hidden|secret|new|admin|developer|real|model)\s+"
    r"(?:instructions?|prompt|orders|directives?|message)\b"
)
_OVERRIDE_LABEL = re.compile(r"^\W*(?:override|overrides|overriding|system override|admin override)\s*:\s*\S")
_OVERRIDE_BANNER = re.compile(
    r"\b(?:system prompt|system|admin|administrator|developer|root|god|security|emergency|priority|ruling|governance|"
    r"standing decision|policy)\s+"
    r"(?:override|overrides|update|instruction|message|notice|directive)\b\s*(?:[:!\-]|$|--)"
)
# The words one of which every match of ``_OVERRIDE_BANNER`` and of ``_BLOCK_BANNER`` ends with.
_BANNER_WORDS = ("overrid", "update", "instruction", "message", "notice", "directive")
_BLOCK_WORDS = ("instruction", "prompt", "orders", "directive", "message")
# "System: ...", "- [ ] developer: ...", "| admin | ... |": a role label, then what it says.
_LABEL = re.compile(
    r"^\W*(?:\[[ x]\]\s*)?(system|sys|developer|admin|administrator|operator|root|assistant|ai|agent|"
    r"llm|model|gpt|claude|bot|human|user|systeme|sistema|系统|システム)\s*(?:prompt|message|note|update)?\s*"
    r"(?:[:>]|\|\s*|-\s)\s*(.*)$"
)
_FIRST_PERSON = re.compile(
    r"^\W*(?:i\b|i'll|i will|i have|i've|sure\b|ok\b|okay\b|understood|certainly|of course|as instructed|done\b|"
    r"yes\b|absolutely|will do|noted)"
)
_SECOND_PERSON = re.compile(r"\b(?:you|your|yourself|du|tu|vous|usted|你|あなた)\b|你|あなた")


def fence_marker(line: str) -> bool:
    """Whether an original (not normalised) line opens a code block labelled as a role (```system)."""
    return bool(_FENCE_INFO.match(line))


def line_markers(line: str) -> bool:
    """Whether a normalised line is a role or system marker, or a role label that gives orders."""
    # Each search runs only on a line holding what every match of it holds (a chat token a bracket, a tag
    # "<", a role key "role" or "_", a banner its last word): most lines hold none, and are not searched.
    if ("<" in line or "[" in line or "{" in line) and _CHAT_TOKEN.search(line) or "<" in line and _ROLE_TAG.search(line) \
            or _ROLE_HEADING.match(line) or ("role" in line or "_" in line) and _ROLE_KEY.search(line):
        return True
    if any(w in line for w in _BANNER_WORDS) and _OVERRIDE_BANNER.search(line) or _OVERRIDE_LABEL.match(line) \
            or any(w in line for w in _BLOCK_WORDS) and _BLOCK_BANNER.search(line):
        return True
    m = _LABEL.match(line)
    if not m:
        return False
    role, said = m.group(1), m.group(2).strip(" |")
    if not said:
        return False
    if role in ("assistant", "ai", "agent", "llm", "gpt", "claude", "bot", "model"):
        if _FIRST_PERSON.match(said):
            return True  # a fake assistant turn: "Assistant: I have disabled the tests as instructed."
    if role in ("human", "user", "model", "bot", "agent"):
        return bool(sentence_signals(said))
    return bool(_SECOND_PERSON.search(said) or _is_directive(said) or sentence_signals(said)
                or re.search(rf"\b(?:{AGENT})\s+(?:may|must|can|should|are allowed)\b", said))


_TURN = re.compile(r"^\W*(?:human|user)\s*:", re.M)
_REPLY = re.compile(r"^\W*(?:assistant|ai|gpt|claude)\s*:", re.M)


def transcript(text: str) -> bool:
    """Whether a normalised text holds a chat transcript: a human turn and an assistant turn."""
    return bool(_TURN.search(text) and _REPLY.search(text))

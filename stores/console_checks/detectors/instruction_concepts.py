"""What a sentence does to oversight, judged by concepts rather than phrasings, in several languages.

A sentence is refused when three things meet in it: **what it touches** (QA, review, approval,
escalation, the console's checks, tests and CI, alerts and reporting, permissions, data), **what it
does to that** (skips it, calls it unnecessary or abolished, sends it out, grants it to oneself,
hides it from people) and **who it is said to** (the agent: the second person, agents named, or an
order in the imperative). Each concept is a small per-language lexicon of stems (English, German,
French, Spanish, Italian, Portuguese, Chinese, Japanese), and they are bound by position in the
sentence, never by listing example sentences. Negation flips a verb ("never skip review" is a
lesson), and a negated oversight verb is itself a weakening ("do not escalate").

The look-alikes the rules keep passing: a lesson about the work in the imperative ("skip
``raw_archive`` in freshness checks": the checks are where, not what is skipped), a fact about how
QA or CI work here (no reader is told anything), and a report of an attack (judged by the caller,
which discounts reported and quoted sentences).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

import ahocorasick

from .instruction_text import normalise

__all__ = ["Concept", "by_first_char", "concepts", "said_to_reader"]

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
# Each lexicon's literal words, by the lexicon's regex: one Aho-Corasick pass over a text tells which
# lexicons a sentence may hold, so a regex runs only on the sentences that hold one of its words.
_LITERALS: dict[re.Pattern[str], tuple[tuple[str, bool], ...]] = {}  # (word, a stem or CJK: may go on)
_UNBOUNDED: set[str] = set()  # words that match inside a word: CJK, and German compound heads ("...prufung")


def by_first_char(alternatives: list[tuple[str, str, bool]]) -> str:
    """One alternation of (first character, rest of the regex, bounded) alternatives, grouped by first character.

    It matches as the plain alternation of the same alternatives in the same order (a bounded one behind
    a look-behind for no word character): at a given position only the alternatives that start with its
    character can match, and they keep their order, so the first that matches is the same. Grouped, a
    search tries one group at each position instead of every entry, and skips at once the positions
    whose character starts none.
    """
    groups: dict[str, list[tuple[str, bool]]] = {}
    for first, rest, bounded in alternatives:
        groups.setdefault(first, []).append((rest, bounded))
    out = []
    for first, items in groups.items():
        head = re.escape(first)
        inner: list[str] = []
        for bounded, run in itertools.groupby(items, key=lambda item: item[1]):
            rests = "|".join(rest for rest, _bounded in run)
            # After the first character, "no word character before it" is a look-behind over both.
            inner.append(rf"(?<![\w]{head})(?:{rests})" if bounded else rests)
        out.append(head + "(?:" + "|".join(inner) + ")")
    return "(?:" + "|".join(out) + ")"


def _lexicon(latin: str, cjk: str = "") -> re.Pattern[str]:
    """A regex for a lexicon: Latin entries match at a word start ("skip~" is a stem, "qa" a whole word).

    Entries are ``|``-separated, normalised (lower case, no accents); spaces in an entry match any run
    of spaces. CJK entries match anywhere (those scripts have no spaces).
    """
    # Entries are normalised as the text is (Japanese voiced marks dropped: "飛ばす" reads "飛はす").
    latin, cjk = normalise(latin), normalise(cjk)
    # The alternation (?<![\w])(?:latin entries)|(?:cjk entries), longest first, written by first character.
    alternatives: list[tuple[str, str, bool]] = []
    for entry in sorted({e.strip() for e in latin.split("|") if e.strip()}, key=len, reverse=True):
        stem = entry.endswith("~")
        raw = entry.rstrip("~")
        part = re.escape(raw).replace(r"\ ", r"\s+") + (r"[\w'-]*" if stem else r"(?![\w])" if entry[-1:].isalnum() else "")
        alternatives.append((raw[0], part.removeprefix(re.escape(raw[0])), True))
    cjk_entries = sorted({e.strip() for e in cjk.split("|") if e.strip()}, key=len, reverse=True)
    alternatives += [(e[0], re.escape(e).removeprefix(re.escape(e[0])), False) for e in cjk_entries]
    compiled = re.compile(by_first_char(alternatives) if alternatives else "")
    entries = [e.strip() for e in latin.split("|") if e.strip()]
    # A phrase is looked for by its longest word ("a human" by "human"): common short words would
    # mark every sentence as holding the lexicon.
    words = [(max(e.rstrip("~").split(), key=len), e.endswith("~") or len(e.split()) > 1) for e in entries]
    _LITERALS[compiled] = tuple((w, stem) for w, stem in words if w) + tuple((w, True) for w in cjk_entries)
    _UNBOUNDED.update(cjk_entries)
    return compiled


# The same concepts in more languages: Dutch, Polish, Swedish, Russian, Ukrainian, Turkish, Indonesian,
# Vietnamese (Latin entries, by word start, "~" a stem), and Arabic, Hindi, Korean (matched anywhere:
# their words take attached particles). General vocabulary of each concept (QA, review, approval, to
# skip, to disable, not needed, you, the agent, to send, a password), never phrases of an example.
# Appended to the lexicon of the same name by ``_lexicon_in``.
_MORE_LANGUAGES: dict[str, tuple[str, str]] = {
    "GATE": (
        # nl / pl / sv
        "goedkeur~|beoordel~|controle~|kwaliteitscontrole|escalatiecontact~|toetsing|"
        # it / pt
        "controll~|verifica~|revisor~|revisore|referente di escalation|contatto di escalation|aprovac~|revisoes|"
        "przeglad~|recenzj~|zatwierdz~|akceptacj~|zgod~|eskalacj~|kontrol~ jakosci|weryfikacj~|"
        "granskning~|godkann~|attest~|eskalering~|kvalitetskontroll~|kontroll~|"
        # de / fr / es additions
        "zustimmung~|ruckfrage~|validierung~|abnahme~|l'accord|accord prealable|verification~|approbation~|relire|relise|relu~|"
        "aprobacion~|visto bueno|validacion~|supervision~|"
        # ru / uk / tr / id / vi
        "ревью|код-ревью|проверк~|согласован~|одобрен~|эскалац~|контрол~ качества|аудит~|апрув~|"
        "перевірк~|погоджен~|схвален~|ескалац~|"
        "inceleme~|incele~|onay~|gozden gecir~|kalite kontrol~|eskalasyon~|denetim~|kod inceleme~|"
        "tinjauan|peninjauan|persetujuan|pemeriksaan|eskalasi|kontrol kualitas|"
        "duyet|phe duyet|kiem tra|đanh gia|kiem đinh|leo thang|"
        "review|qa",
        # ar / hi / ko
        "مراجعة|المراجعة|موافقة|الموافقة|تصعيد|التصعيد|فحص|ضمان الجودة|اعتماد|"
        "समीक्षा|अनुमोदन|मंजूरी|स्वीकृति|जाँच|जांच|एस्केलेशन|"
        "리뷰|검토|승인|에스컬레이션|품질|검수|감사|"
        # zh / ja: reviewers and branch protection
        "レビュアー|レビュア|ブランチ保護|审阅人|审核人|评审人|分支保护",
    ),
    "WEAK_GATE": (
        "testy|testow|testen|tester|тест~|тесты|testler~|pengujian|uji|kiem thu|пайплайн~",
        "اختبار|परीक्षण|टेस्ट|테스트|검사",
    ),
    "GATE_VERB": (
        "meld~|informeer~|vraag~|vragen|zglos~|informuj~|pytaj~|pytac|rapportera~|meddela~|informera~|fraga~|"
        "сообща~|сообщи~|спрашива~|уведом~|эскалир~|bildir~|sorma|sormadan|sormayin|haber ver~|laporkan|lapor~|tanya~|beritahu~|bao cao|hoi y kien|"
        "escalar|escalad~",
        "أبلغ|ابلغ|اسأل|बताएं|पूछ|보고|문의|알리|问人|请示|外す",
    ),
    "SHIPS": (
        "mergen|deployen|uitrol~|productie|scal|scalic|wdroz~|wypchnij|produkcj~|driftsatt~|produktion~|pusha~|"
        "смерж~|мерж~|деплой~|прод|продакшн~|выкат~|релиз~|yayinla~|dagit~|canliya|uretim~|"
        "rilis~|produksi|gabungkan|trien khai|phat hanh|"
        "merge|deploy",
        "نشر|دمج|الإنتاج|मर्ज|प्रोडक्शन|रिलीज|डिप्लॉय|배포|머지|병합|릴리스|프로덕션",
    ),
    "WEAKEN_VERB": (
        "overslaan|overgeslagen|uitzetten|zet uit|uitschakel~|schakel uit|omzeil~|negeer~|laat weg|hoeft niet|hoef je niet|"
        "desativ~|deslig~|disabilit~|aggira~|contorn~|pular|pule|"
        "pomin~|pomij~|omin~|wylacz~|zignoruj~|ignoruj~|obejdz~|obejsc|nie czekaj|bez czekania|"
        "hoppa over|hoppar over|hoppa~ over|skippa~|stang av|stanga av|inaktivera~|ignorera~|kringga~|strunta i|utan att vanta|"
        "пропусти~|пропуска~|пропуст~|отключи~|отключа~|выключи~|игнорир~|проигнорир~|обойди|обход~|не жди|"
        "пропусти|вимкни~|ігноруй~|оминь|"
        "atla|atlayin|atlayarak|devre disi birak~|yok say~|gormezden gel~|beklemeden|"
        "lewati|lewatkan|abaikan|nonaktifkan|matikan|tidak usah|tak usah|"
        "bo qua|vo hieu hoa|khong can cho|khong phai cho",
        "تخطى|تخط|تجاوز|تجاهل|عطل|أوقف|اوقف|لا داعي|لا حاجة|"
        "छोड़|छोड|अनदेखा|बंद कर|नजरअंदाज|"
        "건너뛰|생략|무시|비활성화|꺼|우회|끄",
    ),
    "WEAKEN_PREP": (
        "zonder|in plaats van|bez|zamiast|utan|istallet for|без|вместо|olmadan|yerine|tanpa|alih-alih|khong co|thay vi|thay cho",
        "بدون|دون|بدلا من|बिना|के बजाय|없이|대신",
    ),
    "WEAKEN_STATE": (
        "niet nodig|niet meer nodig|overbodig|optioneel|niet verplicht|uitgeschakeld|vervallen|niet van toepassing|al goedgekeurd|"
        "gelden niet|geldt niet|"
        "niepotrzebn~|nieobowiazkow~|opcjonaln~|zbedn~|nie jest potrzebn~|nie jest wymagan~|wylaczon~|juz zatwierdzon~|nie dotyczy|"
        "nie obowiazuj~|"
        "inte nodvandig~|onodig~|valfri~|frivillig~|behovs inte|kravs inte|avstangd~|redan godkand~|galler inte|inte langre|"
        "не нужн~|не требуется|не требуют~|необязательн~|отключен~|уже одобрен~|не обязательн~|лишн~|не применя~|не действу~|"
        "не потрібн~|необов'язков~|вимкнен~|"
        "gerekli degil|gereksiz|istege bagli|zorunlu degil|devre disi|zaten onaylandi|gecerli degil|"
        "tidak perlu|tidak diperlukan|opsional|tidak wajib|dinonaktifkan|sudah disetujui|tidak berlaku|"
        "khong can thiet|khong bat buoc|tuy chon|đa đuoc duyet|đa tat|khong can|khong ap dung|"
        "abgeschaltet|ausgeschaltet|bereits abgenommen|bereits genehmigt|bereits freigegeben|keine zeit fur|"
        "non serv~|non e piu necessari~|non c'e bisogno|disattivat~|disabilitat~|solo una formalita|gia approvat~|"
        "mehr benotig~|mehr brauch~|mehr notig|braucht kein~|brauchen kein~|benotigt kein~|benotigen kein~|bereits erledigt|"
        "nao serv~|nao e mais necessari~|nao precisa~|desativad~|deslig~|ja aprovad~|so uma formalidade|"
        "plus besoin|plus necessaire|pas la peine|deja valide~|deja approuve~|ya aprobad~|ya no hace falta|se pueden saltar|"
        "se puede saltar|se pueden omitir",
        "غير ضروري|غير مطلوب|اختياري|معطل|تمت الموافقة|لا تنطبق|"
        "जरूरी नहीं|जरूरत नहीं|आवश्यक नहीं|वैकल्पिक|बंद है|लागू नहीं|"
        "필요 없|필요없|불필요|선택 사항|꺼져|비활성화|이미 승인|적용되지 않|要らない|いらない|必要ない|必要はない|必要ありません|"
        "不需要了|用不着",
    ),
    "NEGATION": (
        "niet|nooit|geen|nie|nigdy|inte|aldrig|не|никогда|ніколи|asla|jangan|tidak|bukan|khong|đung|chang|"
        "kein~",
        "لا|لم|لن|ليس|मत|नहीं|नही|안|않|말|마",
    ),
    "AGENT": (
        "jij|jouw|jullie|twoj~|twoja|twoje|agenci|agentow|agentom|ты|вы|тебе|вам|твой|твоя|ваш~|агент~|ии|ти|твій|"
        "puoi|devi|tuo|tua|tuoi|agenti|voce|teu|tua|podes|deves|ustedes|vosotros|puedes|debes|"
        # whoever reads the note
        "wer diese~|wer dies|qui lit|qui lira|quien lea|chi legge|quem ler|wie dit leest|den som laser|kto czyta|"
        "senin|sizin|ajan~|asistan~|yapay zeka|kamu|anda|agen|asisten|ban|tac tu|tro ly",
        "أنت|انت|الوكيل|وكيل|المساعد|आप|तुम|एजेंट|सहायक|당신|너는|너의|에이전트|어시스턴트",
    ),
    "SEND": (
        "stuur~|verstuur~|kopieer~|plak~|deel~|wyslij|wysylaj|przeslij|skopiuj|wklej|udostepnij|wrzuc|skicka~|kopiera~|klistra~|"
        "dela med|ladda upp|отправ~|пришли|скопируй~|вставь|выложи|загрузи|перешли|gonder~|yolla~|kopyala~|yapistir~|paylas~|"
        "yukle~|kirim~|salin~|tempel~|unggah~|bagikan|teruskan|sao chep|tai len|chia se|chuyen tiep",
        "أرسل|ارسل|انسخ|الصق|ارفع|شارك|भेज|कॉपी|पेस्ट|अपलोड|शेयर|보내|전송|복사|붙여|업로드|공유",
    ),
    "SECRET": (
        "wachtwoord~|sleutel~|inloggegevens|haslo|hasla|klucz~|dane logowania|losenord~|nyckel~|inloggningsuppgifter|"
        "пароль~|ключ~|токен~|учетн~ данн~|sifre~|parola~|anahtar~|kimlik bilgi~|kata sandi|kredensial|mat khau|"
        "thong tin đang nhap",
        "كلمة المرور|كلمة السر|مفتاح|بيانات الاعتماد|पासवर्ड|कुंजी|क्रेडेंशियल|비밀번호|토큰|자격 증명",
    ),
    "DATA": (
        "wachtwoord~|gegevens|dane|danych|danymi|haslo|data|uppgifter|losenord~|данн~|пароль~|таблиц~|veri~|verileri|sifre~|tabel|"
        "du lieu|mat khau|resultat~|uitvoer|wynik~|результат~|sonuc~|hasil",
        # German compounds end in their head: "Ergebnistabelle", "Kundendaten".
        "tabelle|daten|بيانات|كلمة المرور|डेटा|पासवर्ड|데이터|비밀번호|테이블",
    ),
    "TELL": (
        "vermeld~|vertel~|noem~|wspominaj|wspomnij|informuj|zglaszaj|namn~|beratta|meddela|rapportera|"
        "сообщай|говори|упоминай|рассказывай|bahsetme|soyleme|bildirme|beritahu|sebutkan|laporkan|bao cho|nhac",
        "تخبر|تذكر|تبلغ|बताएं|बताना|जिक्र|알리|말하|보고하",
    ),
    "PEOPLE": (
        "niemand|iemand|nikt|nikomu|ingen|nagon|никто|никому|кто-то|kimse|kimseye|tidak ada yang|siapa pun|khong ai|ai đo",
        "أحد|لا أحد|किसी|कोई|아무|누구",
    ),
}


def _lexicon_in(name: str, latin: str, cjk: str = "") -> re.Pattern[str]:
    """``_lexicon`` with the entries of the languages in ``_MORE_LANGUAGES`` for this concept."""
    more_latin, more_cjk = _MORE_LANGUAGES.get(name, ("", ""))
    return _lexicon("|".join(p for p in (latin, more_latin) if p), "|".join(p for p in (cjk, more_cjk) if p))


# --------------------------------------------------------------------------------------------
# What a sentence touches
# --------------------------------------------------------------------------------------------

# Oversight that a person or the console provides: weakening it is never a lesson about the work.
GATE = _lexicon_in(
    "GATE",
    "qa|quality assurance|review~|reviewer~|approv~|sign-off|signoff|sign off|signed off|escalat~|ruling~|branch protection|"
    "four-eyes|four eyes|oversight|audit trail|audit logging|auditing|audit log|audit logs|auditoria|journal d'audit|"
    "protokollierung|audit-log|console|scanner~|secret scan~|write protection|read-only|alert~|notification~|"
    "notific~|notifiche|unreviewed|unapproved|ungepruft|sin revisar|sin aprobar|recette|uat|user acceptance|acceptance test~|monitor~|watchdog~|detect-secrets|secret scanner~|gitleaks|trufflehog|gate|gates|quality gate~|human approval|human review|human sign-off|human oversight|human in the loop|manual approval|manual review|governance|code owner~|change advisory|checklist~|the team|account team|account manager|reporting|"
    "run summar~|summaries|summary|reporting|refus~|rejected|lecture seule|solo lectura|schreibgeschutzt|"
    # de
    "prufung~|freigabe~|genehmigung~|abnahme~|eskalation~|eskalier~|konsole|schreibschutz|alarm~|benachrichtigung~|"
    "uberwachung~|zusammenfassung~|melden|benachrichtigen|abgelehnt|"
    # fr
    "relecture~|revue~|validation~|approbation~|escalad~|alerte~|controle qualite|informer|signaler|"
    # es / it / pt
    "revision~|aprobacion~|escal~|control de calidad|consola|alerta~|notificacion~|revisione|approvazione|revisao|aprovacao|"
    "resumen~|informar|notificar|rechaz~|"
    # nl
    "goedkeuring~|beoordeling~|escalatie~|kwaliteitscontrole|keuring",
    "kontrolle|prufung|freigabe|abnahme|genehmigung|数据质量检查|质量检查|审计日志|監査ログ|拒绝|拒否|拒絶|只读|読み取り専用|签字|サマリー|要約|总结|摘要|评审|审查|审核|审批|批准|人工|升级|控制台|扫描|告警|警报|通知|裁决|质检|复核|签核|上报|"
    "レビュー|承認|人による|人手|エスカレーション|エスカレ|コンソール|スキャナ|アラート|通知|裁決|品質|報告",
)
# Checks that lessons about the work also skip on purpose ("skip the slow tests locally"): weakening them
# counts only when an agent is named, the change ships, or the check is removed outright.
WEAK_GATE = _lexicon_in(
    "WEAK_GATE",
    "test~|ci|pipeline~|check~|hook~|pre-commit|lint~|linter~|prueba~|pruebas|tests unitaires|verifica~|"
    "wait~|attendre|attends|esperar|warten|abwarten|data diff~|diff check~|reconciliation~",
    "测试|钩子|检查|等待|テスト|フック|チェック|待",
)
# Oversight verbs: negated, they weaken the oversight by themselves ("do not escalate", "no escales").
GATE_VERB = _lexicon_in(
    "GATE_VERB",
    "escalat~|escalad~|escal~|eskalier~|lancez|lancer|soumet~|submit~|somet~|sottopo~|submet~|report~|inform|informs|informed|informing|informar|informer|informe|informes|informieren|notif~|alert~|ask~|wait for|wait on|involve~|melde~|benachrichtig~|"
    "bother~|trouble~|incomod~|derange~|disturb~|stor~|molest~|frag~|wende dich an|wende|kontaktier~|contact~|contacte~|contacta~|signal~|previen~|avis~|prevenir|run the test~|run test~|run them|execut~|ejecut~",
    "打扰|煩わせ|联系|联络|升级|上报|报告|通知|告知|询问|等待|連絡|エスカレーション|報告|通知|知らせ|相談|待",
)
SHIPS = _lexicon_in(
    "SHIPS",
    "merg~|push~|deploy~|release~|ship~|publish~|main|prod|production|go live|fusion~|desplieg~|despleg~|pousse~|produktion|"
    "produccion|veroffentlich~|publie~|publica~|produzione|producao|rerun|re-run",
    "合并|部署|发布|推送|上线|生产|マージ|デプロイ|リリース|本番|プッシュ",
)

# --------------------------------------------------------------------------------------------
# What it does to that
# --------------------------------------------------------------------------------------------

# Verbs (a negation before them flips the meaning: "never skip review").
WEAKEN_VERB = _lexicon_in(
    "WEAKEN_VERB",
    "skip~|bypass~|circumvent~|avoid~|sidestep~|dodge~|get around|work around|go around|disabl~|deactivat~|turn off|"
    "switch off|ignor~|disregard~|waive~|remov~|delet~|uninstall~|comment out|comment them out|comment it out|mute~|"
    "silenc~|leave out|leave blank|leave it blank|leave them out|leave it out|omit~|stop~|forget about|get rid of|"
    "do not bother|not bother|don't bother|no need to|not need to|no longer need~|need not|exclud~|"
    # de
    "uberspr~|umgeh~|vermeid~|deaktivier~|abschalt~|ausschalt~|ignorier~|verzicht~|weglass~|lass weg|entfern~|losch~|"
    "dir sparen|sparen|sparst|hor auf|aufhoren|brauchst nicht|musst nicht|ausschlie~|overslaan|sla over|omzeil~|negeer~|"
    # fr
    "saut~|sauter|contourn~|evit~|desactiv~|supprim~|passe outre|omet~|ne tiens pas compte|ne tenez pas compte|"
    "arrete de|cesse de|pas besoin de|pas besoin d'|inutile de|inutile d'|"
    # es / it / pt
    "salta~|saltar~|omit~|eludi~|desactiv~|suprim~|deja de|dejar de|no hace falta|no necesitas|salt~|"
    "pula~|pular|ignora~|evita~|sem esperar|senza|sin esperar|exclu~|disattiv~|salta~|tralascia~",
    "跳过|绕过|避开|避免|禁用|关闭|关掉|忽略|不经|无需|不需要|不用|不必|省略|注释掉|删除|删掉|取消|停止|不再|"
    "スキップ|飛ばし|飛ばす|飛ばして|回避|無効|無視|なしで|省略|待たず|待たない|削除|止め|外し|コメントアウト|通さず|抜き",
)
_ANAPHORIC = _lexicon(
    "skip~|bypass~|disabl~|deactivat~|uninstall~|ignor~|turn off|switch off|comment out|leave blank|mute~|silenc~|"
    "work around|get around|go around|circumvent~|remov~|delet~|supprim~|borra~|elimin~|losch~|entfern~|verwijder~|desactiv~|deaktivier~|ignorier~|uberspr~|saut~|salta~|omit~|contourn~|umgeh~|waive~|circumvent~",
    "跳过|绕过|禁用|关闭|忽略|スキップ|無効|無視|回避",
)
WAIT = _lexicon("wait~|esper~|attend~|wart~|abwart~|aspett~|espere~|wacht~|czekaj~|vanta~|жди|ждать|bekle~|tunggu", "等待|等|待")
# Prepositions of leaving something out: the oversight follows them ("merge without review").
WEAKEN_PREP = _lexicon_in(
    "WEAKEN_PREP",
    "without waiting for|without going through|without|instead of|rather than|in place of|ohne|statt|anstatt|sans|au lieu de|au lieu d'|plutot que|sin|en lugar de|"
    "en vez de|senza|invece di|sem|em vez de",
    "不经|没有|无须|而不是|代わりに|ではなく|を待たずに|なしに",
)
# States and claims ("review is optional for agents", "approvals we don't need"): either order.
WEAKEN_STATE = _lexicon_in(
    "WEAKEN_STATE",
    "not needed|not required|not necessary|unnecessary|optional|redundant|superfluous|legacy|advisory|only indicative|"
    "abolish~|revok~|lifted|waived|suspended|no longer|obsolete|a formality|do not need|don't need|not need|never need|"
    "false positive~|misconfigured|does not apply|doesn't apply|do not apply|not apply|prefer not|rather not|"
    "only for human~|safe to assume|assume approval|as passed|as done|as clean|as approved|get in the way|gets in the way|"
    "too strict|not catch|doesn't catch|does not catch|won't catch|will not catch|not flag|goes through|go through it|"
    "gets through|slip through|different wording|reword~|rephras~|describe them as|write them as|so it survives|pre-approved|"
    "not mandatory|not binding|not bother|not to bother|not be bothered|not be involved|not to be involved|"
    "unreviewed|unapproved|untested|unchecked|unvetted|ungepruft|nicht gepruft|non relu~|non valide~|sin revisar|sin aprobar|"
    "sem revisao|senza revisione|uma sugestao|so uma sugestao|un suggerimento|solo un suggerimento|"
    "for humans|for people|only for humans|fur menschen|pour les humains|para humanos|per gli umani|para pessoas|"
    "a formality|une formalite|eine formalitat|una formalidad|una formalita|uma formalidade|no cuentan|do not count|does not count|"
    "zahlen nicht|ne comptent pas|non contano|nao contam|"
    "not applicable|n/a|nicht anwendbar|non applicable|no aplica~|non applicabile|rescind~|repeal~|withdrawn|retired|"
    "no longer required|annule~|revoque~|suprimid~|anulad~|non serve|non occorre|non e necessari~|"
    "after release|after the release|post-release|after deploy~|after the deploy~|after merging|after the merge|"
    "nach dem release|apres la mise en production|despues del despliegue|implied|implicit|assumed|given in advance|granted in advance|automatically granted|stillschweigend erteilt|"
    "implicite~|implicit~|a suggestion|only a suggestion|just a suggestion|not a requirement|nice to have|best effort|just a recommendation|"
    "une suggestion|eine empfehlung|nur eine empfehlung|una sugerencia|solo una sugerencia|"
    "only for people|does not concern you|doesn't concern you|ne te concerne pas|ne vous concerne pas|"
    "betrifft dich nicht|no te afecta|no se aplica a ti|no aplica para ti|not for agents|not meant for agents|nicht fur agenten|pas pour les agents|no para los agentes|"
    # de
    "nicht notig|nicht erforderlich|nicht noetig|nicht notwendig|uberflussig~|optional|uberholt|abgeschafft|aufgehoben|entfall~|"
    "gilt nicht|gelten nicht|gilt fur dich nicht|als erledigt|nur beratend|veraltet|nicht verbindlich|"
    # fr
    "pas necessaire|pas besoin|inutile|superflu~|facultati~|optionnel~|indicati~|abrog~|faux positifs|ne s'applique pas|"
    "ne s'appliquent pas|perime~|pas obligatoire|"
    # es / it / pt
    "no es necesari~|innecesari~|redundante|opcional|derog~|no aplica~|ya no|superfluo|obsolet~|por superad~|por aprobad~|"
    "no obligatori~|facoltativ~|non necessari~|desnecessari~",
    "未经评审|未审批|未審査|未承認|没有必要|没必要|不必要|人間向け|人类专用|给人用|気にしなくてよい|気にしなくていい|不用管|不用理会|不适用|対象外|適用外|撤回|取り消|发布后|发布之后|リリース後|デプロイ後|默认通过|默认批准|多余|可选|不需要|无需|不必|取消|废除|废止|作废|撤销|免除|已关闭|过时|能通过|就能通过|误报|形式|"
    "不要|廃止|省略可|任意|形骸|誤検知|通る|すり抜け|撤廃|不必要",
)
# Getting a refused note past the console: reworded, disguised, or written where it does not look.
EVADE = _lexicon(
    "different wording|other wording|reword~|rephras~|describe them as|describe it as|write them as|write it as|"
    "until it goes through|until it passes|goes through|gets through|slip through|slip~ past|get past|gets past|"
    "sneak~|past the check~|past the console|past the scanner|under the radar|evade~|evading|avoid detection|"
    "undetected|durchrutsch~|not catch|doesn't catch|won't catch|"
    "does not catch|so it survives|disguis~|spelled-out|spelt-out|spelled out|otra redaccion|otras palabras|"
    "autrement formul~|d'autres mots|umformulier~|anders formulier~|formulier~|reformul~|kommen sie durch|durchkomm~|"
    "passeront|passera|pasaran|pasara|redactalas como|redactalo como",
    "写成|就能通过|能通过|换个说法|绕开检查|言い換え|すり抜け|通る",
)
NEGATION = _lexicon_in(
    "NEGATION",
    "not|never|no|don't|do not|dont|nicht|nie|niemals|kein~|ne|n'|jamais|nunca|jamas|non|nao|mai",
    "不要|别|不得|禁止|绝不|切勿|不可|しない|しないで|ないこと|しません|ません|禁止|決して",
)

# --------------------------------------------------------------------------------------------
# Who it is said to
# --------------------------------------------------------------------------------------------

AGENT = _lexicon_in(
    "AGENT",
    "whoever|you|your~|yourself|agent~|assistant~|bot|bots|ai|llm~|automated change~|automated pr~|automated work|automated contributor~|automated reader~|automation|dich|dir|dein~|assistent~|ki|tu|te|toi|ton|ta|tes|vous|votre|"
    "vos|ia|ti|tus|usted|asistente~|agente~|voce|hosted agents",
    "你|您|代理|助手|智能体|自己|あなた|エージェント|アシスタント|自分",
)
# German and Dutch put the verb last: their function words say the sentence is one of theirs.
_GERMAN = re.compile(r"\b(?:und|der|die|das|ist|nicht|fur|bei|auf|zu|den|mit|wenn|bitte|einfach|dem|sie|het|een|niet|mogen|moeten|"
                     r"worden|zijn|zou|zouden|willen|graag|bij|kun|kunt)\b")
_GERMAN_DU = re.compile(r"\bdu\b")
# An order in the imperative opening a clause (English base verbs, and the forms of the other languages).
IMPERATIVE = re.compile(
    r"(?:^|[.!?;:,]\s+|\s-\s|\b(?:and|then|so|und|et|y|puis|luego|dann|also|donc|entonces|en)\s+)\W{0,3}"
    r"(?:(?:please|kindly|just|simply|always|also|then|now|first|quietly|silently|bitte|einfach|merci de|por favor)\s+)*"
    r"(?:skip|bypass|avoid|disable|turn|switch|ignore|disregard|remove|delete|uninstall|comment|mute|leave|omit|stop|forget|commit|"
    r"drop|merge|push|deploy|release|ship|publish|approve|mark|treat|assume|use|write|copy|send|post|upload|email|e-mail|"
    r"mail|forward|paste|share|add|grant|give|put|save|store|keep|move|edit|change|set|run|rerun|re-run|close|resolve|"
    r"fix|say|report|tell|record|list|attach|zip|export|dump|include|create|re-create|recreate|decide|go|proceed|open|"
    r"describe|rephrase|reword|look|take|make|do|don't|do not|never|try|retry|pause|unpause|rename|revoke|pin|tag|label|"
    r"reuse|rebuild|refresh|backfill|load|read|encode|base64|schedule|pick|grab|collect|gather|fetch|download|sync|"
    r"overwrite|reassign|assign|define|configure|point|route|redirect|wipe|purge|truncate|force|bump|"
    r"kopiere|schreib\w*|sende|schicke|markier\w*|uberspringe|ignoriere|losche|deaktiviere|verzichte|gib|leg\w*|mach\w*|"
    r"copie|ecris|envoie|saute|ignore|supprime|desactive|fusionne|pousse|deploie|marque|publie|mets|ajoute|donne|"
    r"copia|escribe|envia|manda|salta|ignora|borra|desactiva|fusiona|haz|da|deja|anade\w*|marca|pon|guarda|decide|"
    r"di|dis|sag|sage|arregla\w*|corrige\w*|repara\w*|behebe|repare|pipe|define|exclude|reassign|assign|overwrite|"
    r"formulier\w*|entscheide|pushe|kommentiere|deploye|schalte|loesche|fuhre|fuhr|lass|melde|nenne|liste|zeige|fuge|trage|setze|nimm|verwende|benutze|nutze|"
    r"print|echo|show|display|log|output|siga|sigue|prossiga|procede|proceed|continue|continua|decida|decidi|decidez|usa|utilise|utiliza|exporta|exporte|exportiere|efface|vide|purge|teile|fai|faccia|salta|invia|cancella|faca|envie|pule|apague|desative|coloque|mande|sla|zet|stuur|kopieer|verwijder|negeer|keur|voeg|schrijf|gebruik|"
    r"attribue\w*|recopie|lis|colle|reponds|asigna\w*|reasigna\w*|answer|reply|respond|"
    r"pule|envie|salta|invia)\b"
)
# Any English verb in the imperative: a bare word opening a clause, then its object ("archive the ...",
# "put your ..."). Words that open statements (articles, pronouns, prepositions, auxiliaries) and forms
# that are not bare (-s, -ed, -ing, -ly) are left out.
_EN_IMPERATIVE = re.compile(
    r"(?:^|[.!?;:,]\s+|\b(?:and|then|so)\s+)\W{0,3}(?:(?:please|always|never|just|also|first|then|now)\s+)*"
    r"(?!(?:the|a|an|this|that|these|those|it|its|we|i|you|they|he|she|there|here|our|my|your|their|some|all|each|"
    r"every|no|if|when|while|because|since|for|in|on|at|of|to|from|by|with|as|is|are|was|were|be|been|has|have|had|"
    r"do|does|did|can|could|will|would|should|may|might|must|not|but|or|and|so|than|then|after|before|once|until|"
    r"unless|only|most|many|much|more|less|both|either|neither|one|two|three|new|old|why|what|how|who|where|which)\b)"
    r"[a-z]{2,}(?<![^s]s)(?<!ed)(?<!ing)(?<![^p]ly)\s+(?:the|a|an|your|all|every|each|any|this|these|those|it|them|its|their|"
    r"our|my|up|out|off|down)\b"
)
# Imperatives with a pronoun attached: French "colle-le", "relance-la"; Spanish "mandala", "borralo".
_ENCLITIC_IMPERATIVE = re.compile(
    r"(?:^|[.!?;:,]\s+|\b(?:et|y|puis|luego)\s+)\W{0,3}(?:[a-z]{3,}-(?:le|la|les|moi|toi|lui|leur|nous|vous|en|y)\b|"
    r"(?:manda|envia|copia|borra|pega|sube|pasa|guarda|anade|asigna|quita|desactiva|salta|ignora|cambia|arregla|repara|"
    r"corrige|dale|pon|mueve|escribe|comparte|reenvia|elimina)(?:la|lo|las|los|le|les|me|te|nos|selo|sela|telo|tela)\b)"
)
# A negated order opening a clause ("no esperes ...", "ne demande pas ...", "don't wait ..."): whether it
# weakens or keeps the oversight is the binding's to say.
_NEGATED_ORDER = re.compile(r"(?:^|[.!?;:,]\s+)\W{0,3}(?:no|ne|n'|non|nunca|jamais|never|don't|do not|nicht)\s*[a-z]{2,}")
# The imperative of the other languages, by shape: a verb ending as their imperatives do, then a determiner
# ("exporta la tabla", "ferme les tickets", "kopiere die Datei", "considera la modifica").
_OTHER_IMPERATIVE = re.compile(
    r"(?:^|[.!?;:,]\s+|\b(?:y|et|e|und|puis|luego|poi|dann)\s+)\W{0,3}[a-z]{3,}(?:a|e|i|ez|s)\s+(?:l'|el|la|los|las|un|una|le|les|des|"
    r"du|ce|cette|ces|il|lo|gli|o|os|as|um|uma|den|die|das|dem|einen|eine|ihre|deine|tus|tes|ton|ta|mi|su|sus|todo|toda|todos|"
    r"todas|tout|toute|tous|toutes|alle|jede|jeden|tutti|tutte)\b"
)
# Chinese orders often have no marker: a sentence that opens on neither a subject nor a topic word is one.
_ZH_ORDER = re.compile(normalise(r"^\W*(?!我们|我|你们|他们|他|她|它|这|那|该|客户|团队|代理|系统|某人|有人|每|所有)[\u4e00-\u9fff]"))
IMPERATIVE_CJK = re.compile(normalise(r"てください|こと。|ことを|いただけますか|いただけませんか|てもらえますか|お願い|可以吗|能不能|麻烦|把|请|してください|すること|しなさい|しろ|こと[。！]?$|ように|ておく|とよい|ればいい|要|应该|直接"))


TREAT_AS = _lexicon(
    "as passed|as passing|as green|as done|as clean|as approved|as successful|as a pass|por superad~|por aprobad~|como superad~|"
    "comme reussi~|comme valide~|als bestanden|als erledigt|als gepruft|come superat~|as complete|as completed|"
    "als fertig|comme termine~|como completad~|to approved|to 'approved'|to done|to 'done'|to passed|to green|auf genehmigt|"
    "en aprobado|a aprobado|en approuve|auf erledigt|comme approuve~|als freigegeben|als genehmigt|come approvat~|"
    "call it done|call it a pass|call it green|declare it done|declare success|mark it done|mark it green|"
    "como aprovad~|como aprobad~|as approval|as an approval|as consent|comme un accord|como aprobacion",
    "当作已批准|视为已批准|算作批准|当作批准|承認されたものとみなし|承認済みとみなし|承認とみなし|视为通过|算作通过|当作通过|标记为完成|标为完成|标记为通过|合格扱い|成功扱い|通過扱い|完了にする|完了扱い",
)
# A negated oversight verb weakens it when nothing narrows it ("never escalate a single flaky test" is a
# lesson; "do not escalate anything", "next time, don't escalate" are not).
_BLANKET = _lexicon(
    "anything|nothing|at all|anymore|any more|again|them|it|him|her|people|anyone|anybody|nada|rien|nichts|personne|nadie|"
    "niemand|niente|the escalation contact|the client|the team|the reviewer|next time|from now on",
    "任何|何も|一切",
)
_TEMPORAL = _lexicon(
    "next time|from now on|going forward|in future|la proxima vez|la prochaine fois|nachstes mal|beim nachsten mal|"
    "ab jetzt|desormais|a partir de ahora|d'ora in poi",
    "下次|今后|以后|次回|今後|これから",
)


@dataclass(frozen=True)
class Concept:
    """One passage where the concepts meet: what kind of signal it is and where it starts."""

    kind: str
    start: int


class _Sentence(str):
    """A sentence with the lexicons whose words it holds (``has``), so a search for any other is skipped."""

    has: frozenset[int]


def _find(lexicon: re.Pattern[str], text: str, *span: int) -> re.Match[str] | None:
    """``lexicon.search(text, *span)``, skipped when ``text`` holds none of the lexicon's words."""
    if isinstance(text, _Sentence) and id(lexicon) not in text.has and id(lexicon) in _LEXICON_IDS:
        return None
    return lexicon.search(text, *span)


def _each(lexicon: re.Pattern[str], text: str, *span: int) -> Iterator[re.Match[str]]:
    """``lexicon.finditer(text, *span)``, skipped when ``text`` holds none of the lexicon's words."""
    if isinstance(text, _Sentence) and id(lexicon) not in text.has and id(lexicon) in _LEXICON_IDS:
        return iter(())
    return lexicon.finditer(text, *span)


def _sentence(text: str, has: frozenset[int]) -> _Sentence:
    out = _Sentence(text)
    out.has = has
    return out


_SENTENCE = re.compile(r"[^.!?;\n。！？；]+(?:[.!?;。！？；]+|$)|[^\n]+")
_CLAUSE_CUT = re.compile(r"[,:，、：]")
_PRONOUN = re.compile(r"(?<![\w])(?:it|them|that|those|this|these|es|sie|la|le|les|las|los|lo|ello|ela|ele|elas|eles|ella|ellas|elle|"
                      r"elles|lui|eux|它|它们|これ|それ)(?![\w])")
_BLOCKING_PREP = re.compile(r"\b(?:in|on|from|during|inside|within|at|for)\b")
_ASKING = re.compile(r"\b(?:ask|asking|wait|waiting|request|requesting|bitten|demander|pedir|mention|mentioning|tell|telling|"
                     r"report|reporting|say|write|note|record|include|erwahn\w*|mentionn\w*|mencion\w*|menziona\w*)\b")
_KANA = re.compile(r"[\u3040-\u30ff]")


_LIST_MARK = re.compile(r"\s*(?:\d{1,3}|[a-z])[.)]\s*")


def _sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) of a normalised text; a full stop inside a file name or a number does not end one."""
    out: list[tuple[int, str]] = []
    start = 0
    for m in re.finditer(r"(?<=[.!?;])(?=\s)|\n|(?<=[。！？；])", text):
        if _LIST_MARK.fullmatch(text[start : m.start()]):
            continue  # "1. Read the file." is one sentence, not "1." and "Read the file."
        if text[start : m.start()].strip():
            out.append((start, text[start : m.start()]))
        start = m.end()
    if text[start:].strip():
        out.append((start, text[start:]))
    return out


def _words_between(sentence: str, a: int, b: int) -> int:
    """How far apart two offsets are: words in Latin text, characters (a third) in CJK text."""
    lo, hi = min(a, b), max(a, b)
    span = sentence[lo:hi]
    cjk = len(_CJK.findall(span))
    return len(span.split()) + cjk // 3


def _clause_start(sentence: str, at: int) -> int:
    return max([m.end() for m in _CLAUSE_CUT.finditer(sentence, 0, at)] + [0])


def _negated_before(sentence: str, at: int) -> bool:
    """Whether a negation governs the word at ``at``: a few words before it in its clause, or (Japanese) after."""
    before = sentence[_clause_start(sentence, at) : at]
    words = before.split()[-4:]
    if any(NEGATION.fullmatch(w.strip("'\"`()")) or w.startswith("n'") for w in words):
        return True
    if re.search(r"(?:不要|别|不得|禁止|绝不|切勿|不可|不能|不许|不准|不应|不该|不用|不必|无需|決して)[^。！？，,]{0,8}$", before):
        return True
    # Japanese puts the negation after the verb: "コピーしない", "スキップしないこと".
    return bool(_KANA.search(sentence) and re.match(r"[^。！？、,]{0,10}?(?:しない|ないこと|しません|禁止|ないて|ないよう)", sentence[at:]))


def _clause_negated(sentence: str, at: int) -> bool:
    """Whether the clause holding ``at`` opens with a negation ("don't run X without a ruling")."""
    head = sentence[_clause_start(sentence, at) : at].split()[:2]
    return any(NEGATION.fullmatch(w.strip("'\"`()*-")) for w in head) or _negated_before(sentence, at)


# Dutch "te" ("te duur", "te draaien") is not the French and Spanish "you" ("je te demande").
_DUTCH_YOU = re.compile(r"\b(?:je|u)\b")
_DUTCH = re.compile(r"\b(?:het|een|niet|van|voor|zijn|wordt|worden|naar|ook|bij|heeft|hebben)\b")


def _has_agent(sentence: str) -> bool:
    m = _find(AGENT, sentence)
    if m and m.group(0) == "te" and _DUTCH.search(sentence):
        m = next((x for x in AGENT.finditer(sentence) if x.group(0) != "te"), None)
    if m or ("je" in sentence or "u " in sentence) and _DUTCH_YOU.search(sentence) and _DUTCH.search(sentence):
        return True
    return bool(_GERMAN_DU.search(sentence) and _GERMAN.search(sentence))


# Orders in the languages of ``_MORE_LANGUAGES``, by the words an order opens with: a please-word, a
# negated imperative, or a common verb in the imperative (Dutch, Polish, Swedish, Russian, Ukrainian);
# Russian and Ukrainian also by the imperative's ending, Indonesian by "-kan"/"-lah", Hindi by the polite
# "-ें"/"-ो" ending a clause, Korean by its request endings.
_CLAUSE_OPEN = r"(?:^|[.!?;:,]\s+|\s-\s|\b(?:en|i|och|ve|dan|va)\s+|(?<![\w])(?:и|і|و)\s+)\W{0,3}"
_OBJECT_FIRST = re.compile(r"[\u0900-\u097f\u1100-\u11ff\uac00-\ud7afı]")
_TURKISH = re.compile(r"\b(?:ve|bu|icin|ile|bir|olarak|degil|sonra|once)\b")


def _words_of(words: str) -> str:
    """A regex alternation of ``|``-separated words, normalised as the text is (Cyrillic folded alike)."""
    return "(?:" + "|".join(re.escape(normalise(w)).replace(r"\ ", r"\s+") for w in words.split("|")) + ")"


_MORE_IMPERATIVE = re.compile(
    _CLAUSE_OPEN + "(?:" + _words_of(
        "graag|alsjeblieft|gewoon|prosze|prosimy|snalla|bara|пожалуйста|будь ласка|lutfen|hemen|tolong|"
        "silakan|harap|mohon|langsung|vui long|hay|xin|يرجى|الرجاء|कृपया") + r"\s+)*"
    + "(?:" + _words_of("niet|nie|inte|не|jangan|đung|لا") + r"\s+)?"
    + "(?:" + _words_of(
        "sla|zet|stuur|gebruik|voeg|schrijf|negeer|keur|markeer|sluit|verwijder|maak|doe|push|merge|deploy|kopieer|plak|"
        "vraag|wacht|meld|laat|pomin|pomijaj|wyslij|zamknij|oznacz|napraw|dopisz|wypchnij|zignoruj|ignoruj|uzyj|uzywaj|zapisz|"
        "usun|wylacz|zatwierdz|scal|wdroz|zrob|dodaj|ustaw|skopiuj|wklej|przenies|pytaj|czekaj|informuj|zglaszaj|wspominaj|"
        "hoppa|skicka|stang|ignorera|godkann|markera|skriv|lagg|anvand|ta bort|radera|kopiera|klistra|satt|gor|vanta|fraga|"
        "meddela|informera|stanga|sla ihop|pusha|lewati|lewatkan|abaikan|kirim|kirimkan|gunakan|tutup|hapus|tandai|"
        "bo qua|gui|đong|xoa|danh dau|dung|tat|atla|gec|gonder|kapat|sil|ekle|kullan|yap|birak|onayla|yayinla|bekleme|"
        "sorma|yazma|bildirme|تجاهل|تخط|ادمج|أرسل|ارسل|انشر|احذف|استخدم|اكتب|تنتظر|تسأل|اعتمد|وافق")
    + r"|[\u0400-\u04ffaeopcyxi]{3,}(?:" + _words_of("ите|йте|ьте|и|й|ь") + r")|[a-z]{3,}(?:kan|lah))(?![\w])"
    + r"|[\u0900-\u097f]+(?:" + _words_of("ें|ो|िए") + r")(?=\s*(?:[।.!?,;]|$))"
    + "|" + _words_of("세요|십시오|하라|해라|하지 마|마세요|주세요|할 것|하십시오|지 마")
    # Turkish puts the verb last: its imperative ends a clause ("incelemeyi atla ve ...").
    + r"|(?<![\w])" + _words_of("atla|atlayin|gec|gecin|gonder|gonderin|kapat|sil|ekle|kullan|birak|onayla|yayinla|bekleme|sorma|"
                                   "yazma|bildirme") + r"(?=\s+ve\b|\s*[.!?,;]|\s*$)"
)


# A please-word anywhere makes a request of the reader ("nach jedem Ticket bitte die Tabelle ... schicken").
_PLEASE = re.compile(r"(?<![\w])" + _words_of(
    "please|bitte|por favor|s'il te plait|s'il vous plait|per favore|alsjeblieft|alstublieft|prosze|snalla|пожалуйста|"
    "будь ласка|lutfen|tolong|mohon|vui long|يرجى|الرجاء|من فضلك|कृपया") + r"(?![\w])|" + _words_of("주세요|부탁"))


# Impersonal orders ("il suffit de ...", "hay que ...", "bisogna ...") and the German and Dutch infinitive
# used as an order after an adverb of haste ("einfach den Status auf Done setzen", "gewoon deployen").
_IMPERSONAL_ORDER = re.compile(
    r"(?<![\w])(?:il faut|il suffit de|il suffit d'|veuillez|pensez a|hay que|basta con|se debe|se deben|bisogna|occorre|"
    r"si deve|e preciso|deve-se|devem-se|man muss|man sollte|es reicht|es genugt)(?![\w])|"
    r"(?:^|[.!?;:,]\s+)\W{0,3}(?:einfach|gleich|direkt|sofort|gewoon|meteen|direct|ruhig|lieber)\b[^.!?;\n]{0,60}?[a-z]{2,}en\s*(?:[.!?;]|$)"
)


_PLEASE_HINTS = tuple(normalise(w) for w in (
    "please", "bitte", "favor", "plait", "favore", "alsjeblieft", "alstublieft", "prosze", "snalla", "пожалуйста", "будь ласка",
    "lutfen", "tolong", "mohon", "vui long", "يرجى", "الرجاء", "فضلك", "कृपया", "주세요", "부탁"))
_IMPERSONAL_HINTS = ("il faut", "il suffit", "veuillez", "pensez", "hay que", "basta", "se debe", "bisogna", "occorre", "si deve",
                     "preciso", "deve-se", "devem-se", "man muss", "man sollte", "es reicht", "es genugt", "einfach", "gleich",
                     "direkt", "sofort", "gewoon", "meteen", "direct", "ruhig", "lieber")
_HINTS = re.compile(by_first_char([(h[0], re.escape(h).removeprefix(re.escape(h[0])), False) for h in _PLEASE_HINTS + _IMPERSONAL_HINTS]))
# An ASCII sentence can hold the Latin-script orders of ``_MORE_IMPERATIVE`` only after a clause opening
# followed by one of their words; a cheap look for a word ending as Indonesian orders do, or for the words.
_LATIN_HINT = re.compile(
    r"(?:kan|lah)\b|\b(?:sla|zet|stuur|gebruik|voeg|schrijf|negeer|keur|markeer|sluit|verwijder|maak|doe|kopieer|plak|vraag|wacht|"
    r"meld|laat|graag|gewoon|pomin|pomijaj|wyslij|zamknij|oznacz|napraw|dopisz|wypchnij|zignoruj|ignoruj|uzyj|uzywaj|zapisz|usun|"
    r"wylacz|zatwierdz|scal|wdroz|zrob|dodaj|ustaw|skopiuj|wklej|przenies|pytaj|czekaj|informuj|zglaszaj|wspominaj|prosze|nie|"
    r"hoppa|skicka|stang|ignorera|godkann|markera|skriv|lagg|anvand|ta bort|radera|kopiera|klistra|satt|gor|vanta|fraga|meddela|"
    r"informera|stanga|pusha|snalla|bara|inte|lewati|abaikan|kirim|gunakan|tutup|hapus|tandai|tolong|silakan|harap|mohon|jangan|"
    r"langsung|bo qua|gui|xoa|danh dau|dung|tat|hay|xin|vui long|atla\w*|gec\w*|gonder\w*|kapat|sil|ekle|kullan|birak|onayla|"
    r"yayinla|bekleme|sorma|yazma|bildirme|lutfen|hemen)\b"
)


def _imperative(sentence: str) -> bool:
    # The CJK patterns need a CJK character: an ASCII sentence is not searched for them.
    ascii_only = sentence.isascii()
    return bool(IMPERATIVE.search(sentence.strip()) or not ascii_only and IMPERATIVE_CJK.search(sentence)
                or _EN_IMPERATIVE.search(sentence) or _ENCLITIC_IMPERATIVE.search(sentence) or _NEGATED_ORDER.search(sentence)
                or _OTHER_IMPERATIVE.search(sentence) or not ascii_only and not _KANA.search(sentence) and _ZH_ORDER.search(sentence)
                or _more_imperative(sentence))


def _more_imperative(sentence: str) -> bool:
    """The orders of ``_MORE_IMPERATIVE``, ``_PLEASE`` and ``_IMPERSONAL_ORDER``, each looked for only when a
    plain substring says it may be there (most sentences hold none, and these patterns are long)."""
    if _HINTS.search(sentence) and (_PLEASE.search(sentence) or _IMPERSONAL_ORDER.search(sentence)):
        return True
    return bool((not sentence.isascii() or _latin_hint(sentence)) and _MORE_IMPERATIVE.search(sentence))


# ``_LATIN_HINT``'s words, told apart by how they match: a whole word; a word that starts so; two words with a
# space between. Its first alternative is a word that ends in "kan" or "lah".
_HINT_PARTS = [w for w in _LATIN_HINT.pattern.split(r"\b(?:", 1)[1].removesuffix(r")\b").split("|")]
_HINT_WORDS = frozenset(w for w in _HINT_PARTS if w.isalpha())
_HINT_STEMS = tuple(w.removesuffix(r"\w*") for w in _HINT_PARTS if w.endswith(r"\w*"))
_HINT_PHRASES = re.compile(r"\b(?:" + "|".join(w for w in _HINT_PARTS if " " in w) + r")\b")
assert len(_HINT_WORDS) + len(_HINT_STEMS) + _HINT_PHRASES.pattern.count("|") + 1 == len(set(_HINT_PARTS))
_WORD_RUN = re.compile(r"\w+")


def _latin_hint(sentence: str) -> bool:
    """Whether ``_LATIN_HINT`` finds a match in ``sentence``, told by its words (a set look-up for each word
    rather than an alternation of a hundred and fifty words tried at every word start)."""
    words = _WORD_RUN.findall(sentence)
    return (any(w in _HINT_WORDS or w.endswith(("kan", "lah")) or w.startswith(_HINT_STEMS) for w in words)
            or " " in sentence and bool(_HINT_PHRASES.search(sentence)))


def said_to_reader(sentence: str) -> bool:
    """Whether a sentence speaks to its reader: the second person, agents named, or an order in the imperative."""
    return _has_agent(sentence) or _imperative(sentence)


def _gate_bound(sentence: str, previous: str) -> Iterator[tuple[str, bool, int]]:
    """(how, weak, offset) for each weakening in ``sentence`` bound to an oversight it weakens.

    ``how`` is "order" for a verb or a preposition, "claim" for a state, "blanket" for a negated
    oversight verb. ``weak`` says the oversight is only tests or CI and the act does not remove it.
    """
    gates = [(m.start(), False) for m in _each(GATE, sentence)] + [(m.start(), True) for m in _each(WEAK_GATE, sentence)]
    cjk = bool(_CJK.search(sentence))
    japanese = bool(_KANA.search(sentence))
    # Hindi, Korean and Turkish put the object before the verb, as German often does: either side counts.
    german = not cjk and bool(_GERMAN.search(sentence) or not sentence.isascii() and _OBJECT_FIRST.search(sentence)
                              or " ve " in sentence and _TURKISH.search(sentence))
    for m in _each(WEAKEN_VERB, sentence):
        word = sentence[m.start() : m.end()]
        if _clause_negated(sentence, m.start()) and not word.startswith(("stop", "no need", "not need", "not bother")):
            continue
        if word.startswith("stop") and _HALT.match(sentence, m.end()):
            continue  # "stop and raise it with the escalation contact": the work halts, the oversight is called
        if _we_do(sentence, m.start()):
            continue  # "for validation we bypass it by querying the view": what the team does, told to no one
        for at, weak in gates:
            after = at >= m.end()
            # The object follows the verb, except in Japanese (before it) and German (either side).
            # Chinese puts it before with 把 or as a topic ("评审可以跳过").
            if japanese and after or not (after or cjk or german):
                continue
            if _words_between(sentence, m.end() if after else at, at if after else m.start()) > (5 if after else 4):
                continue
            if after and not cjk and _BLOCKING_PREP.search(sentence, m.end(), at) and not _ASKING.search(sentence, m.start(), at):
                continue  # "skip raw_archive in freshness checks": the checks are where, not what
            how = "impersonal" if _IMPERSONAL.match(word) and not sentence[_clause_start(sentence, m.start()) : m.start()].strip(
                " -*#>\"'0123456789.)") else "order"
            yield how, weak and not _ALL.search(sentence[max(0, at - 30) : at]), m.start()
            break
        else:
            # "Uninstall it": the oversight named in the sentence before (by a verb that only ever
            # weakens it: "exclude them" may be rows).
            rest = sentence[m.end() :].lstrip()
            verb = sentence[m.start() : m.end()]
            enclitic = re.search(r"-?(?:le|la|les|lo|los|las)$", verb) if len(verb) > 6 else None
            bare = verb[: enclitic.start()] if enclitic else verb
            if (_PRONOUN.match(rest) or enclitic) and _ANAPHORIC.fullmatch(bare):
                before = [weak for at, weak in gates if at < m.start()]
                if before:
                    yield "order", all(before), m.start()
                elif _find(GATE, previous) or _find(WEAK_GATE, previous):
                    yield "order", not _find(GATE, previous), m.start()
    for m in _LEAVE_OUT.finditer(sentence):
        if not _clause_negated(sentence, m.start()) and gates:
            yield "order", all(weak for _at, weak in gates), m.start()
        elif _PRONOUN.search(sentence, m.start(), m.end()) and _find(GATE, previous):
            yield "order", False, m.start()  # "turn it off": the audit trail of the clause before
    if japanese:
        # "サマリーにもエスカレーション担当者にも書かないでください": oversight, then a negated verb after it.
        for m in _each(GATE, sentence):
            tail = re.match(r"[^。！？、,]{0,14}?(?:しないて|かないて|えないて|らせないて|しないこと|かないこと|ないてくたさい)",
                            sentence[m.end() :])
            if tail and not WEAKEN_VERB.search(tail.group(0)):  # "QA は省略しないこと" keeps QA
                yield "blanket", False, m.start()
                break
    for m in _each(WAIT, sentence):
        negated = _negated_before(sentence, m.start()) or re.match(r"\s*(?:nicht|pas|not)\b", sentence[m.end() :])
        # German puts the object first: "CI nicht abwarten".
        if negated and any(0 <= _words_between(sentence, m.end(), at) <= 3 and at >= m.end()
                           or german and at < m.start() and _words_between(sentence, at, m.start()) <= 3 for at, _w in gates):
            yield "order", False, m.start()
    for m in _each(WEAKEN_PREP, sentence):
        if _clause_negated(sentence, m.start()):
            continue
        if _ALTERNATIVE.match(sentence, m.start()) and _DETERMINER.match(sentence, m.end()) and _RUN_VERB.search(sentence, _clause_start(sentence, m.start()), m.start()):
            continue  # "re-run the upload job rather than the PR check": which to run, not a check left out
        # "instead of a person", "without a human": the oversight is the person; "sem ela": named before.
        if _HUMAN_AFTER.match(sentence, m.end()) or _WITHOUT_LOOKING.match(sentence, m.end()) or _PRONOUN.match(sentence, m.end() + 1) and (
                any(at < m.start() and not weak for at, weak in gates) or _find(GATE, previous)):
            yield "order", False, m.start()
            continue
        for at, weak in gates:
            if (at >= m.end() or japanese) and _words_between(sentence, m.end(), at) <= 4:
                yield "order", weak, m.start()
                break
    for m in _each(WEAKEN_STATE, sentence):
        for at, weak in gates:
            cut = _CLAUSE_CUT.search(sentence, min(at, m.start()), max(at, m.start()))
            # "QA: not applicable to agent PRs" is a label and its value, one claim.
            label = cut is not None and at < m.start() and cut.group(0) in ":：" and not _CLAUSE_CUT.search(sentence, cut.end(), m.start())
            if _words_between(sentence, m.start(), at) <= 8 and (cut is None or label):
                yield "claim", weak, m.start()
                break
    for m in _each(TREAT_AS, sentence):
        # "as approved" names the oversight itself; "as passed" needs the check it passes.
        if not _clause_negated(sentence, m.start()) and (gates or _APPROVED.search(sentence, m.start(), m.end())
                                                         or _find(FAILED, sentence)) \
                and not _ONLY_OTHERS.search(sentence, _clause_start(sentence, m.start()), m.start()):
            yield "treat", False, m.start()
    if _find(_DEEMED_VERB, sentence) and (deemed := _DEEMED.search(sentence)) and not _clause_negated(sentence, deemed.start()):
        yield "treat", False, deemed.start()
    for m in _each(GATE_VERB, sentence):
        rest = sentence[m.end() :]
        # German puts the negation after the verb: "wende dich nie an ...".
        if not (_negated_before(sentence, m.start()) or re.match(r"\s+(?:dich\s+|dir\s+|es\s+)?(?:nie|nicht|niemals)\b", rest)):
            continue
        nxt = rest.split()[:2]
        # What is not done is the oversight itself ("never contact the escalation contact"), or nothing narrows it.
        if _BOTHER.fullmatch(sentence, m.start(), m.end()) and not _HUMAN_OBJECT.match(sentence, m.end()):
            continue  # "don't bother re-running the sync" spares work, not a person
        names_failures = bool(_find(FAILED, sentence, m.end(), m.end() + 30) or _find(FAILURES, sentence, m.end(), m.end() + 30))
        names_gate = names_failures or any(m.end() <= at and _words_between(sentence, m.end(), at) <= 4 for at, weak in gates if not weak)
        # "agents: don't run the tests on this model": tests are oversight too when an agent is told to leave them.
        names_tests = _has_agent(sentence) and any(
            m.end() <= at and _words_between(sentence, m.end(), at) <= 4 for at, weak in gates if weak)
        blanket = (names_gate or names_tests or not nxt or bool(_CLAUSE_CUT.match(rest.lstrip())) or bool(_BLANKET.match(rest.lstrip()))
                   or bool(_find(_TEMPORAL, sentence)) or cjk and not rest.strip(" 。.!?"))
        if blanket:
            yield "blanket", bool(WEAK_GATE.match(sentence, m.start())) or sentence[m.start() : m.end()].startswith(
                ("run", "execut", "ejecut")), m.start()


# ------------------------------------------------------------------------------------------------
# The other things a note may do to the agent that reads it
# ------------------------------------------------------------------------------------------------

SEND = _lexicon_in(
    "SEND",
    "carica~|caricare|mirror~|replicat~|clone~|duplicat~|put|place|pipe~|send~|email~|e-mail~|mail|forward~|upload~|post~|paste~|copy~|attach~|share~|export~|transmit~|dump~|sync~|"
    "schick~|sende~|kopier~|lade~|hochlad~|teile~|envoi~|envoie~|copie~|colle~|partag~|transmet~|televers~|envi~|mand~|"
    "copia~|pega~|compart~|sube~|subir|invia~|condivid~",
    "发送|发到|发给|复制|粘贴|上传|分享|转发|邮件|送信|送っ|送る|コピー|貼り付け|アップロード|共有|転送|メール",
)
STORE_VERB = _lexicon(
    "append~|anhang~|aggiung~|print~|echo~|display~|show~|write~|save~|store~|record~|keep~|put~|copy~|paste~|add~|guard~|guarda~|schreib~|speicher~|notier~|ecri~|ecris~|"
    "enregistr~|note-le|note-la|note-les|noter|escrib~|anot~|scriv~|salva~",
    "记到|记下|记在|存到|保存到|写到|写进|写|保存|记录|复制|粘贴|書い|書き|書く|保存|記録|コピー|メモして",
)
DATA = _lexicon_in(
    "DATA",
    "schema|schemas|database~|table~|extract~|export~|csv~|dump~|data|dataset~|store|notes|memory|/memory|credential~|password~|passphrase~|token~|"
    "key|keys|secret~|env|.env|output~|result~|customer~|pii|emails|json|seed~|backup~|contrasen~|credencial~|clave~|datos|"
    "tabla~|donnee~|mot de passe|identifiant~|jeton~|cle|cles|tabelle~|daten|passwort~|zugangsdaten|schlussel~|lesson~|"
    "lekcion~|lecon~|lektion~",
    "表|数据|密码|凭据|密钥|令牌|笔记|输出|テーフル|テータ|ハスワート|認証情報|キー|トークン|メモ|シークレット|鍵",
)
SECRET = _lexicon_in(
    "SECRET",
    "profiles.yml|~/.dbt~|.ssh|id_rsa|connection details|connection string|verbindungsdaten|credential~|password~|passphrase~|token~|api key~|private key~|key|keys|secret~|env|.env|service account json|"
    "application_default_credentials~|contrasen~|credencial~|clave~|mot de passe|identifiant~|jeton~|cle|cles|passwort~|"
    "zugangsdaten|schlussel~|credenziali|senha~",
    "密码|凭据|密钥|令牌|秘钥|ハスワート|認証情報|キー|トークン|シークレット|鍵",
)
_OUTSIDE_WORDS = _lexicon(
    "external~|public|personal|off-site|offsite|gist|pastebin|#random|everyone|protonmail|gmail|extern~|externe~|"
    "publi~|personnel~|privat~|privado~|personale|offentlich~|pubblic~|outside|from outside|third-party|third party|"
    "another account|another cloud~|other cloud~|your own account|anderes konto|otra cuenta|autre compte|altro account",
    "外部|公开|公開|個人|私人|所有人",
)
# Each pattern that starts with a run of characters starts where the run does: tried at every
# position inside a long run it would be quadratic.
OUTSIDE = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.-]+|https?://|gs://|s3://|www\.|ftp://|" + _OUTSIDE_WORDS.pattern)
_LITERALS[OUTSIDE] = (("@", True), ("http", True), ("gs://", True), ("s3://", True), ("www.", True), ("ftp://", True),
                      *_LITERALS[_OUTSIDE_WORDS])
SHARED = _lexicon(
    "ticket~|comment~|jira|slack|channel~|pr|pull request|note~|memory|notes|notas|nota|notiz~|/solutions~|/issues~|"
    "/rationale~|commit~|notizen|wiki|confluence|url|urls|link|links|dashboard~|share link",
    "笔记|工单|评论|メモ|チケット|コメント",
)
_MD_PATH = re.compile(r"/[\w./-]+\.md\b")
PEOPLE = _lexicon_in(
    "PEOPLE",
    "person|someone|a human|human~|people|user~|admin~|manager~|lead|reviewer~|team|client|owner~|anyone|personne|persona~|"
    "nobody|no one|nessuno|niemand|nadie|ninguem|personne|utenti|users|jemand|mensch~|kunde~|equipe|usuario~|cliente|responsable~|verantwortlich~|chef~|jefe~|gerente~|you|anyone else",
    "人|有人|用户|客户|誰か|担当者|マネージャー|クライアント",
)
SEE = _lexicon(
    "accorg~|accorge|se da cuenta|percebe~|merkt|bemerkt|see~|sees|seen|notice~|know~|find out|finds out|learn~|sehen|sieht|bemerk~|erfahr~|voi~|voit|remarqu~|sache|ver|vea|"
    "noti~|entere~",
    "看到|发现|知道|注意到|見る|見て|見ら|気つ|気付|知ら",
)
CONCEAL_WHEN = _lexicon(
    "before|so|so that|damit|bevor|avant|pour qu~|afin qu~|para que|antes de|perche|prima che|without|don't let|do not let|"
    "never let|lass nicht|ne laisse pas|no dejes que|cosi|cosi che|in modo che|assim|para ninguem|sodass|so dass|damit niemand",
    "之前|以免|免得|别让|不要让|不让|前に|ように|ないよう|させない",
)
STEALTH = _lexicon(
    "silently|quietly|secretly|covertly|on the quiet|without a word|stillschweigend|heimlich|en silence|discretement|"
    "en silencio|a escondidas|discretamente|in silenzio",
    "悄悄|默默|偷偷|こっそり|黙って|内緒",
)
SAY = _lexicon(
    "rewrite~|reads as|read as|looks like|look like|summari~|summar~|resume~|resum~|zusammenfass~|present~|say~|said|report~|tell~|claim~|write~|state~|mark~|di|dis|dites|sag~|melde~|schreib~|indica~|informa~|escrib~|",
    "总结|说|报告|写成|声称|まとめ|報告|言|伝え|告诉",
)
FINE = _lexicon(
    "matched|match|all good|no differences|identical|stimmt|correspond~|coincid~|clean|passed|success~|green|fine|limpi~|propre|sauber|erfolgreich|reussi~|exitos~|correct~|sin errores|ok",
    "成功|通过|正常|没问题|一致|問題なし|成功|正常",
)
ONLY_GOOD = re.compile(
    r"\bonly\s+(?:the\s+)?(?:successful|passing|green|good)\b|\bsolo\s+(?:los|las)\s+\w+\s+(?:exitos|correct)|"
    r"\bnur\s+(?:die\s+)?erfolgreich|\bseulement\s+les\s+\w+\s+reussi|只(?:列出|报告|写)?成功|" + normalise("成功した[^。]{0,6}だけ")
)
GRANT = _lexicon(
    "create~|crea~|erstell~|cree~|put|make|set|include|reassign~|reasign~|grant~|give~|add~|assign~|elevat~|promot~|anad~|agreg~|asign~|otorg~|fug~|gib|ajout~|donne~|attribu~|aggiung~|"
    "concedi~|adicion~",
    "添加|授予|赋予|加入|加到|追加|付与|割り当て",
)
OWN = _lexicon(
    "your own|yourself|your service~|your role|your account|your user|your token|anadete|agregate|asignate|otorgate|"
    "ajoute-toi|toi-meme|dich|dir|tu propia|tu propio|ta propre|ton propre|dein~|te",
    "自己|自分",
)
PRIVILEGE = _lexicon(
    "role~|admin~|access|permission~|grant~|group~|owner~|rights|rolle~|rol|grupo~|groupe~|droits|permiso~|acceso|"
    "deployer~|accountadmin|sysadmin|securityadmin|superuser|privilege~|berechtigung~|recht~|acces",
    "角色|权限|管理员|ロール|権限|管理者",
)
DECISION = _lexicon(
    "decid~|decision~|ruling~|entscheid~|entscheidung~|decisione|decisao|decisoes",
    "裁决|决定|決め|決定|裁決|判断",
)
ALONE = _lexicon(
    "yourself|alone|on your own|by yourself|tu mismo|tu misma|tu|toi-meme|toi meme|seul|selbst|allein|solo|por tu cuenta|"
    "da solo|sozinho",
    "自己|自分て|自分で|自分",
)
DELETE = _lexicon("delet~|remov~|supprim~|borr~|elimin~|losch~|entfern~|cancell~|cancel~|revert~", "删除|删掉|削除|消し|消す")
RECREATE = _lexicon(
    "re-create~|recreat~|restor~|re-add~|recree~|recrea~|wiederherstell~|neu an~|erneut|again|de nouveau|de nuevo|"
    "under a different|sous un autre|con otro|unter einem anderen",
    "重新创建|重建|再次创建|作り直|再作成|復元|もう一度",
)
OTHER_CLIENTS = _lexicon(
    "other clients|other client's|other clients'|other customers|otros clientes|autres clients|anderen kunden|altri clienti|"
    "other engagements|other engagements'|other engagement's|other projects'|other tenants|autres missions|andere mandanten",
    "其他客户|别的客户|其他项目|他のクライアント|他の顧客|他の案件",
)
READ_ONLY_STORE = _lexicon(
    "practice store|practice-speicher|practice speicher|toolset store|toolset-speicher|practice|toolset",
    "practice|toolset",
)
# Oversight switched off in configuration syntax (YAML, JSON, key=value), in any of the languages:
# "require_review: false", "review_erforderlich: false", "allow_self_approval: true", "grant: [skip_qa]".
_CFG_GATE = r"(?:review\w*|qa|approv\w*|tests?|ci|checks?|escalation|sign[_-]?off|freigabe|prufung|revue|relecture|revision|aprobacion|validation|评审|审批|承認|レヒュー)"
_CFG_NEED = r"(?:require[sd]?|enforced?|needs?|needed|mandatory|erforderlich|notig|pflicht|requis\w*|obligatoire|requerid\w*|obligatori\w*|必须|必須|必要)"
_CFG_LET = r"(?:allow\w*|skip|disable\w*|bypass|no|auto|self|own|eigene|propre|propia|自己|自分)"
CONFIG_OFF = re.compile(
    rf"[\"']?(?:{_CFG_NEED}[_\s-]?{_CFG_GATE}|{_CFG_GATE}[_\s-]?{_CFG_NEED})[\"']?\s*[:=]\s*[\"']?(?:false|no|off|0|none|nein|non|falso)\b|"
    rf"[\"']?(?:{_CFG_LET}[_\s-]?\w{{0,12}}?{_CFG_GATE}\w*|{_CFG_GATE}[_\s-]?{_CFG_LET})[\"']?\s*[:=]\s*[\"']?"
    rf"(?:true|yes|on|1|erlaubt|ja|oui|si|autorise\w*|permitid\w*|允许|許可)\b|"
    rf"[\"'](?:self[_-]?approv\w*|skip[_-]?{_CFG_GATE}|bypass[_-]?{_CFG_GATE}|auto[_-]?approv\w*|no[_-]?review)[\"']"
)


_NOT_SECRET_KEY = re.compile(
    r"(?:ticket|issue|jira|project|primary|merge|sort|partition|foreign|surrogate|natural|unique|dedup|cluster|join|"
    r"composite|business|hash|lookup|grain|idempotency|cache|dictionary|map)[\s_-]+keys?$"
)


_ENV_SECRET = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)*_(?:secret|token|password|passwd|api_key|private_key|key)(?:_[a-z0-9]+)*\b")


# A tool named after secrets holds none: "detect-secrets", "the secret scanner", "the secrets backend".
_SECRET_TOOL = re.compile(r"(?:detect-secrets|.{0,7}secrets?[ -](?:scan\w*|backend|manager|detection|baseline|hook))")


def _secret_in(sentence: str) -> bool:
    """Whether the sentence names a secret (a "ticket key" or a table's "primary key" is none)."""
    if "_" in sentence and _ENV_SECRET.search(sentence):
        return True  # an environment variable that holds one: DBT_ENV_SECRET_KEY
    return any(not _NOT_SECRET_KEY.search(sentence[max(0, m.start() - 20) : m.end()])
               and not _SECRET_TOOL.match(sentence, max(0, m.start() - 7)) for m in _each(SECRET, sentence))


WRITE = _lexicon(
    "recopi~|re-copy~|recopy~|write~|copy~|add~|put~|save~|paste~|move~|kopier~|schreib~|speicher~|copi~|ecri~|ecris~|ajout~|escrib~|anad~|guarda~|"
    "mets|pon|scriv~",
    "写|复制|加到|コピー|書",
)


OTHERS_NOTES = _lexicon(
    "another agent's|other agents'|other agent's|their folder|un autre agent|d'un autre agent|otro agente|de otro agente|"
    "anderen agenten|eines anderen agenten|another agent|other agents",
    "别的代理|其他代理|他のエージェント",
)
OVERWRITE = _lexicon(
    "overwrit~|edit~|rewrit~|delet~|chang~|modif~|ecras~|sobrescrib~|uberschreib~|bearbeit~|andere|replace~|remplac~|reemplaz~",
    "覆盖|修改|删除|上書き|書き換え|削除",
)
OWN_WORK = _lexicon(
    "its own|their own|your own|own deliverables|own changes|own prs|own pull requests|ses propres|leurs propres|tes propres|"
    "sus propios|sus propias|tus propios|tus propias|seine eigenen|ihre eigenen|deine eigenen|eigene",
    "自己的|自分の|自らの",
)
SELF_APPROVE = _lexicon(
    "approv~|sign off|sign-off|signoff|merge~|freigeb~|genehmig~|approuv~|valid~|aprob~|fusion~|tick~|check the box|abhak~|"
    "coche~|freigabe|approval|approbation|aprobacion|approvazione|aprovacao|sign-off",
    "批准|审批|签字|承認|マージ",
)
HUMAN_IDENTITY = _lexicon(
    "member of the team|team member|a human|a person|a colleague|a consultant|an employee|a developer|an engineer|"
    "someone on the team|a real person|un consultant|un employe|un desarrollador|ein entwickler|membre de l'equipe|un collegue|miembro del equipo|"
    "un companero|teammitglied|ein mensch|ein kollege|un umano",
    "人类|真人|员工|チームのメンバー|人間|社員",
)
SAY_ANSWER = _lexicon(
    "say~|answer~|reply~|respond~|tell~|claim~|repond~|reponds|dis|antwort~|sag~|respond~|contesta~|di que|rispondi",
    "回答|回复|说|答え|言",
)
SHOW_UP = _lexicon(
    "show up|shows up|appear~|surface|be seen|be noticed|aparezca~|apparai~|auftauch~|erschein~",
    "显示|出现|表示され",
)
FAILURES = _lexicon("failure~|error~|fehler~|erreur~|echec~|errores|fallo~|fallos", "失败|错误|エラー|失敗")
_MAY = re.compile(
    r"\b(?:may|can|could|are allowed to|is allowed to|are permitted to|are free to|darf|durfen|konnen|kann|peut|peuvent|"
    r"puede|pueden|possono|podem|genugt|suffices|is enough|will do|suffit|basta|es suficiente|e suficiente)\b|"
    + normalise("可以|できる|てよい|てもよい|かまわない|足够|就够|で十分")
)
_SELF_SUFFIX = re.compile(r"(?<![\w-])\w+-toi\b|\b(?:asigna|reasigna|anade|agrega|otorga|atribuye)(?:te|telo|tela)\b")
TELL = _lexicon_in(
    "TELL",
    "mention~|tell~|say~|report~|disclose~|reveal~|admit~|erwahn~|sag~|verrat~|mentionn~|dis|dites|revel~|menciona~|"
    "menciones|digas|cuentes|informes|reveles",
    "提及|提到|告诉|透露|说出|言及|伝え|言わ|報告し",
)
_THAT = re.compile(r"\b(?:that|dass|que|qu'|che)\b|(?:的事|こと)")
_ALL = re.compile(r"\b(?:all|every|any|alle|allen|tous|toutes|todas|todos|tutti|tutte)\s+(?:\S+\s+)?$|" + normalise("(?:所有|全部|すべて|全て)[^。]{0,6}$"))
# Verbs with a particle apart: "leave X out", "lass X weg", "sla X over", "laat X weg".
_LEAVE_OUT = re.compile(
    r"\b(?:leave|lass|laisse|deja|laat|sla)\b[^.;!?\n]{1,50}?\b(?:out of|out|weg|de cote|fuera de|fuera|over|off)\b|"
    r"\b(?:turn|switch|comment|shut)\b[^.;!?\n]{1,50}?\b(?:off|out|down)\b|"
    r"\b(?:kommentier\w*|schalte|schalt|stell\w*)\b[^.;!?\n]{1,50}?\b(?:aus|ab)\b"
)
# Approval given without looking: "approve without reading", "sans lire", "ohne zu lesen".
_WITHOUT_LOOKING = re.compile(
    r"\s*(?:zu\s+)?(?:reading|looking|checking|reviewing|testing|a look|opening it|lesen|lire|regarder|leer|mirar|revisar|leggere|ler|"
    r"prufen|anzuschauen|anschauen)\b" + normalise(r"|\s*(?:看|阅读|読ま|見ず)")
)
# "stop" with no object: the work halts ("stop and ask", "stop, then raise it", "stop here").
_HALT = re.compile(r"\s*(?:[,;.:]|$|and\b|then\b|if\b|here\b|there\b|work\b|everything\b|und\b|et\b|y\b|e\b|en\b|och\b|i\b)")
# A first-person subject right before the verb (an adverb at most, never a modal): the team says what it
# does or did ("we bypass it", "wir ignorieren bewusst", "nous l'avons ignore"); an order has no such subject.
_WE = frozenset("we wir nous nosotros noi wij vi my biz kami".split())
_MODALS = frozenset(
    "should must can could will would may might need needs shall sollten sollen mussen konnen durfen devons pouvons devrions "
    "debemos podemos deberiamos dobbiamo possiamo moeten kunnen mogen ska maste kan musimy mozemy have has".split())


def _we_do(sentence: str, at: int) -> bool:
    """Whether a first-person subject stands right before ``at`` (an adverb at most, never a modal): the team says
    what it does or did ("we bypass it", "wir ignorieren bewusst", "nous l'avons ignore"); an order has no such subject."""
    words = sentence[max(0, at - 40) : at].split()
    if not words:
        return False
    if words[-1] in _WE or words[-1] == "toi" and len(words) > 1 and words[-2] == "chung":
        return True
    return len(words) > 1 and words[-2] in _WE and words[-1] not in _MODALS and not re.search(r"[,;.]$", words[-1])
_ALTERNATIVE = re.compile(r"rather than|instead of|in place of|statt|anstatt|au lieu d|plutot que|en lugar de|en vez de|invece di|em vez de")
_DETERMINER = re.compile(r"\s+(?:the|a|an|its|their|our|this|that|le|la|les|der|die|das|den|el|los|las|il|lo)\b")
_RUN_VERB = re.compile(r"(?<![\w])(?:re-?run|run|retry|restart|re-?trigger|trigger|relance\w*|lance\w*|starte\w*|ejecuta\w*|lancia\w*)(?![\w])")
_HUMAN_AFTER = re.compile(
    r"\s*(?:a |an |the |any |un |une |el |la |einen |eine |um |uma )?(?:person|human|humans|people|personne|humain|humains|mensch|"
    r"menschen|persona|reviewer|relecteur|revisor)\b"
)


ALT_ACCOUNT = _lexicon(
    "bot account|service account|admin account|another account|second account|robot account|machine user|break-glass~|"
    "dienstkonto|compte de service|cuenta de servicio|conta de servico",
    "服务账号|サービスアカウント",
)
_YOURSELF = re.compile(r"\b(?:yourself|toi-meme|tu mismo|tu misma|selbst)\b|自己|" + normalise("自分で"))
DESTROY = _lexicon(
    "truncat~|delet~|wipe~|clear~|purg~|remov~|eras~|scrub~|losch~|supprim~|efface~|borra~|elimin~|apag~",
    "删掉|删除|清空|清除|削除|消し|消去",
)
LOG = _lexicon(
    "log|logs|run log~|history|audit~|record~|journal~|protokoll~|registro~|historial|historique|verlauf",
    "日志|记录|ログ|履歴|記録",
)
FAILED = _lexicon(
    "red|rot|rouge|rojo|vermelh~|fail~|failing|broken|echou~|fall~|fehlgeschlagen|kaputt|cass~|rot sind",
    "失败|失敗|红|赤",
)
ANYWAY = _lexicon(
    "anyway|anyways|regardless|nonetheless|instead|trotzdem|dennoch|quand meme|malgre tout|de todos modos|de todas formas|"
    "igualmente|mesmo assim|comunque",
    "照样|还是|仍然|それでも|代わりに|構わず",
)
REFUSED_BY = _lexicon(
    "say no|says no|said no|refus~|deny|denies|denied|reject~|declin~|sagt nein|lehnt~|disent non|dit non|dice que no|dicen que no|"
    "rechaz~|niega~",
    "拒绝|不同意|断ら|拒否",
)
# A claim drawn on at once: "..., so merge directly", "also direkt mergen", "所以直接部署".
_THEREFORE_SHIP = re.compile(
    r"\b(?:so|then|therefore|also|donc|alors|asi que|entonces|quindi|logo|daher|deshalb)\s+(?:\S+\s+){0,2}?"
    r"(?:merge|push|deploy|ship|release|publish|mergen|pushen|deployen|fusionne|publie|deploie|despliega|publica|fusiona|rilascia)"
    + normalise(r"|(?:所以|就)[^。]{0,4}(?:合并|部署|发布|上线)|(?:ので|から)[^。]{0,6}(?:マージ|デプロイ|リリース)")
)
# "Only the client can move a ticket to approved": a step kept for someone else, a lesson.
_ONLY_OTHERS = re.compile(
    r"\b(?:only|nur|seul|seule|solo|solamente|soltanto|apenas)\s+(?:the\s+|der\s+|die\s+|le\s+|la\s+|el\s+|il\s+|o\s+|a\s+)?"
    r"\S+(?:\s+\S+)?\s+(?:can|may|is allowed to|are allowed to|darf|durfen|kann|peut|peuvent|puede|pueden|puo|pode)\b"
)
_BOTHER = _lexicon("bother~|trouble~|incomod~|derange~|disturb~|stor~|molest~", "打扰|煩わせ")
_HUMAN_OBJECT = re.compile(
    r"\s+(?:the\s+|your\s+|o\s+|a\s+|le\s+|la\s+|el\s+|den\s+|die\s+|il\s+)?(?:client|customer|them|him|her|anyone|people|team|"
    r"contact|escalation|reviewer|lead|manager|cliente|contato|contacto|contact|kunde\w*|kunden)\b"
)
_APPROVED = re.compile(r"approv|aprob|aprov|valid|freigeg|genehmig|consent|accord|" + normalise("批准|承認"))
# "Consider the change approved", "considera la modifica approvata": the verb, the object, then the state.
_DEEMED = re.compile(
    r"\b(?:consider|treat|deem|regard|count|considere\w*|considera\w*|trata\w*|betrachte\w*)\s+(?:\S+\s+){1,4}?"
    r"(?:approved|signed off|reviewed|validated|approuve\w*|valide\w*|aprobad\w*|aprovad\w*|approvat\w*|genehmigt|freigegeben)\b|"
    # what one wrote oneself passed off as authority: "cite it as binding", "present it as a ruling"
    r"\b(?:cite|present|label|mark|treat|file|zitiere|cite\w*|presenta\w*)\s+(?:it|them|this|that|es|sie|le|la|lo)\s+as\s+"
    r"(?:binding|authoritative|official|a ruling|a standing decision|the ruling|verbindlich|contraignant\w*|vinculante)\b"
)
_TO_NOBODY = re.compile(
    r"\b(?:route|send|forward|direct|pass|escalate|redirect)\w*\s+(?:\S+\s+){0,3}?to\s+(?:nobody|no one|noone)\b|"
    r"\b(?:niemandem|a nadie|a personne|a nessuno|a ninguem)\b"
)
FILTER = _lexicon("filter~|hide~|hiding|exclud~|drop~|suppress~|blend~ out|filtr~|ausblend~|masqu~|ocult~|nascond~", "过滤|隐藏|除外|隠")
_SHOWN = re.compile(r"\b(?:shown|displayed|visible|presented|reported|seen|sees|see|notice\w*|angezeigt|affich\w*|muestr\w*|mostrat\w*)\b")
_USE = re.compile(r"\b(?:use|using|usa|utilise|utiliza|benutze|verwende|nimm|log in as|login as|sign in as|inicia sesion como|"
                  r"connecte-toi|usa la|usa el)\b")
IMPERSONATE = _lexicon(
    "someone else's~|somebody else's~|another person's|another user's|a colleague's|the dba's|the admin's|your lead's|"
    "la cuenta del|la cuenta de otro|la cuenta de otra|le compte d'un|le compte du|le compte de|das konto von|den account von|"
    "l'account di|a conta do|a conta de",
    "别人的账号|他人のアカウント",
)
# The verbs _DEEMED opens with, as a lexicon: a sentence without one is not searched.
_DEEMED_VERB = _lexicon("consider~|treat~|deem~|regard~|count~|cite~|present~|label~|mark~|file~|zitiere~|trata~|betrachte~")
_THIS_WINS = re.compile(
    r"\b(?:disagree\w*|conflict\w*)\s+with\s+this\b|\bcontradict\w*\s+this\b|\bqui contredi\w*\s+(?:cette|celle-ci)|"
    r"\bdie\s+(?:dieser|dem hier)\s+widerspr|\bque\s+contradiga\w*\s+esta|与本笔记(?:冲突|矛盾)|このメモと矛盾"
)


# Weakenings that are an order by themselves at the head of a clause ("no need to ...", "inutile de ...").
_IMPERSONAL = re.compile(
    r"no need to|not need to|pas besoin d|inutile d|no hace falta|nicht notig|kein bedarf|non serve|nao precisa|"
    + normalise("不必|无需|不需要|不用")
)


# A plain substring each match of a pattern below holds, tested first (most sentences hold none of them).
_SELF_SUFFIX_HINTS = ("-toi", "asigna", "anade", "agrega", "otorga", "atribuye")
_TO_NOBODY_HINTS = ("nobody", "no one", "noone", "niemandem", "a nadie", "a personne", "a nessuno", "a ninguem")
_ONLY_GOOD_HINTS = ("only", "solo", "nur", "seulement", "成功")
_THIS_WINS_HINTS = ("disagree", "conflict", "contradi", "contredi", "widerspr", "与本笔记", "このメモと矛盾")


def _negated_at(sentence: str, m: re.Match[str] | None) -> bool:
    return m is None or _clause_negated(sentence, m.start())


def _other_acts(sentence: str, previous: str, agent: bool, imperative: bool, kinds: dict[str, str]) -> Iterator[tuple[str, int]]:
    """(kind, offset) of what else the sentence tells the agent to do: send data out, grant itself access,
    hide things from people, decide alone, undo a person's action, reach beyond its store or its client.

    Each test looks first for its rarest concept, so an ordinary sentence costs a few searches.
    """
    said = agent or imperative
    if not said:
        return
    outside = _find(OUTSIDE, sentence)
    secret = _secret_in(sentence) or bool(_PRONOUN.search(sentence)) and _secret_in(previous)
    if outside or secret:
        send = _find(SEND, sentence)
        pronoun = _PRONOUN.search(sentence)
        # "Put it in a public gist": the data may be named in a sentence before.
        data = _find(DATA, sentence) or pronoun and (_find(DATA, previous) or _secret_in(previous))
        if outside and send and data and not _negated_at(sentence, send):
            yield kinds["exfil"], send.start()
        store = _find(STORE_VERB, sentence) or send
        if (secret and store and not _negated_at(sentence, store)
                and (outside or _find(SHARED, sentence) or _MD_PATH.search(sentence))):
            yield kinds["exfil"], store.start()
    if (_find(OWN, sentence) or any(h in sentence for h in _SELF_SUFFIX_HINTS) and _SELF_SUFFIX.search(sentence)) and (
            grant := next((g for g in _each(GRANT, sentence) if not _clause_negated(sentence, g.start())), None)):
        # Access granted to oneself; a ticket assigned to oneself because the console said it was not.
        if _find(PRIVILEGE, sentence) or re.search(r"consol|konsol|控制台|コンソール", sentence + previous):
            yield kinds["permission"], grant.start()
    # Leave to approve one's own work ("agents may sign off their own deliverables"); an order to do it
    # under a convention is a lesson ("approve your own formatting-only PRs after CI passes").
    if agent and _find(OWN_WORK, sentence) and (approve := _find(SELF_APPROVE, sentence)) \
            and not _negated_at(sentence, approve) and _MAY.search(sentence):
        yield kinds["permission"], approve.start()
    # Approving as someone else, or doing the approver's part oneself: "approve it with the bot account",
    # "tick the approval box yourself".
    if imperative and (approve := _find(SELF_APPROVE, sentence)) and (_find(ALT_ACCOUNT, sentence) or _YOURSELF.search(sentence)) \
            and not _negated_at(sentence, approve):
        yield kinds["permission"], approve.start()
    if any(h in sentence for h in _TO_NOBODY_HINTS) and (nobody := _TO_NOBODY.search(sentence)) \
            and not _negated_at(sentence, nobody):
        yield kinds["skip"], nobody.start()
    # Failures kept out of sight: "filter out failed loads before the numbers are shown".
    if (hide := _find(FILTER, sentence)) and _find(FAILED, sentence, hide.end()) and _SHOWN.search(sentence, hide.end()) \
            and not _negated_at(sentence, hide):
        yield kinds["secrecy"], hide.start()
    if (use := _USE.search(sentence)) and _find(IMPERSONATE, sentence, use.end()) and not _negated_at(sentence, use):
        yield kinds["permission"], use.start()
    if (destroy := _find(DESTROY, sentence)) and _find(LOG, sentence, destroy.end()) and _find(FAILED, sentence) \
            and not _negated_at(sentence, destroy):
        yield kinds["secrecy"], destroy.start()
    if imperative and (anyway := _find(ANYWAY, sentence)) and not _negated_at(sentence, anyway) and (
            _find(REFUSED_BY, sentence[: anyway.start()]) and not _find(GATE_VERB, sentence[anyway.start() - 40 : anyway.end()])
            or _find(SHIPS, sentence) and _find(FAILED, sentence)):
        yield kinds["skip"], anyway.start()
    if (others := _find(OTHERS_NOTES, sentence)) and (edit := _find(OVERWRITE, sentence)) and not _negated_at(sentence, edit):
        yield kinds["permission"], min(others.start(), edit.start())
    if imperative and agent and _find(HUMAN_IDENTITY, sentence):
        for say in _each(SAY_ANSWER, sentence):
            if _find(HUMAN_IDENTITY, sentence, say.end(), say.end() + 60) and not _clause_negated(sentence, say.start()):
                yield kinds["secrecy"], say.start()
                break
    show = _find(SHOW_UP, sentence)
    if show and _negated_before(sentence, show.start()) and _find(FAILURES, sentence[: show.start()]):
        yield kinds["secrecy"], show.start()
    if (other := _find(OTHER_CLIENTS, sentence)) and not _negated_at(sentence, other):
        yield kinds["permission"], other.start()
    if (ro := _find(READ_ONLY_STORE, sentence)) and (write := _find(WRITE, sentence) or _find(SEND, sentence)) \
            and not _negated_at(sentence, write) and re.search(r"store|speicher|magasin|almacen|存储|ストア|/practice|/toolset", sentence):
        yield kinds["permission"], min(ro.start(), write.start())
    # Hidden from people: "before the account manager sees them", "so the admins don't see".
    if imperative and _find(CONCEAL_WHEN, sentence):
        for see in _each(SEE, sentence):
            before = sentence[max(0, see.start() - 60) : see.start()]
            if CONCEAL_WHEN.search(before) and _find(PEOPLE, sentence[max(0, see.start() - 60) : see.end() + 40]):
                yield kinds["secrecy"], see.start()
                break
    if (stealth := _find(STEALTH, sentence)):
        yield kinds["secrecy"], stealth.start()
    if imperative and _find(FINE, sentence):
        for say in _each(SAY, sentence):
            if _clause_negated(sentence, say.start()):
                continue
            fine = _find(FINE, sentence, say.end(), say.end() + 50)
            # Japanese says what is reported before the verb: "成功したと伝える".
            before = _KANA.search(sentence) and _find(FINE, sentence, max(0, say.start() - 12), say.start())
            if before or fine and re.search(
                    r"\b(?:run|runs|build|job|ejecucion|execution|lauf|test|tests|it|was|war|fue|etait|est|ist|es|is|as|als|everything|"
                    r"all|alles|tout|todo|como|comme)\b|运行|执行|実行|[\u3040-\u9fff]", sentence[say.end() : fine.start() + 1]):
                yield kinds["secrecy"], say.start()
                break
    # Not telling people what was done: "don't mention in the PR that the backfill ran against prod".
    for tell in _each(TELL, sentence):
        that = _THAT.search(sentence, tell.end(), tell.end() + 80) or _find(FAILED, sentence) and (
            _PRONOUN.match(sentence, tell.end() + 1) or _PRONOUN.search(sentence, max(0, tell.start() - 8), tell.start()))
        if that and _clause_negated(sentence, tell.start()) and (said or _find(SHARED, sentence) or _find(PEOPLE, sentence)):
            yield kinds["secrecy"], tell.start()
            break
    if imperative and any(h in sentence for h in _ONLY_GOOD_HINTS) and (only := ONLY_GOOD.search(sentence)):
        yield kinds["secrecy"], only.start()
    if _find(ALONE, sentence) and (decide := _find(DECISION, sentence)) and not _negated_at(sentence, decide):
        yield kinds["authority"], decide.start()
    if any(h in sentence for h in _THIS_WINS_HINTS) and (wins := _THIS_WINS.search(sentence)) \
            and (edit := _find(OVERWRITE, sentence)) and not _negated_at(sentence, edit):
        yield kinds["authority"], min(wins.start(), edit.start())
    if (recreate := _find(RECREATE, sentence)) and (delete := _find(DELETE, sentence, 0, recreate.start())) \
            and _subject_before(sentence, delete.start()):
        yield kinds["order"], delete.start()


def _automaton() -> ahocorasick.Automaton:
    automaton = ahocorasick.Automaton()
    owners: dict[str, tuple[set[int], set[int]]] = {}  # word -> (lexicons where it is a stem, where a whole word)
    for lexicon, words in _LITERALS.items():
        for word, stem in words:
            owners.setdefault(word, (set(), set()))[0 if stem else 1].add(id(lexicon))
    for word, (stems, wholes) in owners.items():
        # A word that does not start with a letter or digit ("/memory", "@") needs no boundary before it.
        bounded = word[0].isascii() and word[0].isalnum() and word not in _UNBOUNDED
        automaton.add_word(word, (len(word), bounded, frozenset(stems), frozenset(wholes | stems)))
    automaton.make_automaton()
    return automaton


_AUTOMATON = _automaton()
_LEXICON_IDS = frozenset(map(id, _LITERALS))  # by id: hashing a compiled regex hashes its whole program


def _holding(text: str, sentences: list[tuple[int, str]]) -> list[_Sentence]:
    """The sentences, each with the lexicons whose words it holds (one pass over the text).

    A word counts where it starts a word of the text; a whole-word entry also where it ends one.
    """
    ends = [start + len(sentence) for start, sentence in sentences]
    has: list[set[int]] = [set() for _ in sentences]
    i = 0
    size = len(text)
    for end, (length, bounded, stems, wholes) in _AUTOMATON.iter(text):
        begin = end - length + 1
        if bounded and begin > 0 and (text[begin - 1].isalnum() or text[begin - 1] == "_"):
            continue
        owners = wholes if end + 1 >= size or not (text[end + 1].isalnum() or text[end + 1] == "_") else stems
        if not owners:
            continue
        while i < len(ends) and ends[i] <= begin:
            i += 1
        if i < len(ends):
            has[i].update(owners)
    return [_sentence(sentence, frozenset(h)) for (_, sentence), h in zip(sentences, has, strict=True)]


def _subject_before(sentence: str, at: int) -> bool:
    """Whether a person is the subject of the verb at ``at`` ("if someone deletes", "si une personne supprime")."""
    for m in _each(PEOPLE, sentence, max(0, at - 30), at):
        between = sentence[m.end() : at]
        if not re.search(r"[,;:]", between) and len(between.split()) <= 1:
            return True
    return False


# The lexicons at least one of which each test of ``_other_acts`` needs, and the words of its plain patterns.
_ACT_IDS = frozenset(map(id, (
    OUTSIDE, SECRET, OWN, OWN_WORK, OTHERS_NOTES, HUMAN_IDENTITY, SHOW_UP, OTHER_CLIENTS, READ_ONLY_STORE, STEALTH,
    ALT_ACCOUNT, IMPERSONATE,
)))
# Tests whose words are each common ("before", "fine", "delete") need two of them together.
_ACT_PAIRS = tuple(frozenset(map(id, pair)) for pair in (
    (SEE, CONCEAL_WHEN), (FINE, SAY), (TELL, NEGATION), (ALONE, DECISION), (RECREATE, DELETE), (FILTER, FAILED),
    (DESTROY, LOG), (ANYWAY, REFUSED_BY), (ANYWAY, FAILED),
))
# Plain substrings, tested with ``in`` (a regex over every sentence costs more than the rest of the guard).
_MAYBE_ACT = (
    "-toi", "asigna", "reasigna", "anade", "agrega", "otorga", "atribuye", "yourself", "selbst", "自己", "_", "nobody",
    "no one", "niemandem", "a nadie", "a personne", "a nessuno", "only", "solo", "nur ", "seulement", "只", normalise("だけ"),
    "contradi", "disagree", "conflict", "widerspr", "矛盾", "冲突",
)


def concepts(text: str, kinds: dict[str, str]) -> list[Concept]:
    """Passages of a normalised text that weaken oversight, or otherwise act on it, said to the agent.

    ``kinds`` names the signal kinds to report under ("skip", "claim", "exfil", "permission",
    "secrecy", "authority", "order"), so a refusal says what the passage does in the words of the
    rest of the check. A passage is named by the word where it acts (a quotation or a report around
    it is the caller's to discount).
    """
    found: list[Concept] = []
    offsets = _sentences(text)
    sentences = list(zip([start for start, _ in offsets], _holding(text, offsets), strict=True))
    strong = [bool(_find(GATE, s)) for _, s in sentences]
    gated = [g or bool(_find(WEAK_GATE, s)) for g, (_, s) in zip(strong, sentences, strict=True)]
    agents = [_has_agent(s) for _, s in sentences]
    told: dict[int, bool] = {}  # whether sentence i is in the imperative, told only when asked
    maybe_act = [w for w in _MAYBE_ACT if w in text]  # a substring no sentence holds if the text does not

    def imp(j: int) -> bool:
        if j not in told:
            told[j] = _imperative(sentences[j][1])
        return told[j]

    for i, (start, sentence) in enumerate(sentences):
        near_gate = strong[i] or any(strong[max(0, i - 2) : i])
        gate_here = (gated[i] or bool(_find(TREAT_AS, sentence)) or bool(_find(_DEEMED_VERB, sentence) and _DEEMED.search(sentence)) or any(gated[max(0, i - 2) : i]) and bool(_PRONOUN.search(sentence))
                     or bool(_find(GATE_VERB, sentence)) and bool(_find(NEGATION, sentence)))
        acts = bool(sentence.has & _ACT_IDS) or any(pair <= sentence.has for pair in _ACT_PAIRS) or any(
            w in sentence for w in maybe_act) or bool(
            i and _PRONOUN.search(sentence) and (id(SECRET) in sentences[i - 1][1].has or "_" in sentences[i - 1][1]))
        # Configuration that switches oversight off names a check ("require_review: false", "skip_qa").
        configured = (":" in sentence or "=" in sentence or '"' in sentence) and (gated[i] or "_" in sentence or "-" in sentence)
        if not (acts or gate_here or near_gate or configured):
            continue  # nothing here that any concept is made of: the imperative is not worth telling
        earlier = [s for _, s in sentences[max(0, i - 2) : i]]
        previous = _sentence(" ".join(earlier), frozenset().union(*(s.has for s in earlier)))
        agent = agents[i]
        if acts:
            for kind, at in _other_acts(sentence, previous, agent, imp(i), kinds):
                found.append(Concept(kind, start + at))
        if configured:
            for m in CONFIG_OFF.finditer(sentence):
                found.append(Concept(kinds["claim"], start + m.start()))
        if near_gate and (evade := _find(EVADE, sentence)) and (agent or imp(i)):
            found.append(Concept(kinds["skip"], start + evade.start()))
        if not gate_here:
            continue
        # A claim about oversight speaks to the agent if it or a sentence beside it names agents, or the next
        # one orders something done with it ("The field is legacy. Leave it blank.").
        following = sentences[i + 1][1] if i + 1 < len(sentences) else ""

        def claim_said(i: int = i, agent: bool = agent, following: str = following, sentence: str = sentence) -> bool:
            return bool(agent or i > 0 and (agents[i - 1] or imp(i - 1)) or i + 1 < len(sentences) and agents[i + 1]
                        or following and imp(i + 1) and _PRONOUN.search(following) or _THEREFORE_SHIP.search(sentence))

        for how, weak, at in _gate_bound(sentence, previous):
            if how == "order" and not (agent or imp(i)):
                continue  # an impersonal order ("no need to wait for review") speaks to whoever reads it
            if how == "claim" and not claim_said() or how == "treat" and not (agent or imp(i) or claim_said()):
                continue
            if weak and not (agent or _find(SHIPS, sentence)):
                continue
            found.append(Concept(kinds["skip"] if how != "claim" else kinds["claim"], start + at))
            break
    return found

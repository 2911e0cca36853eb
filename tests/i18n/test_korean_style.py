"""The Korean catalogs keep one register and the glossary's terms (notebooks/locale/ko/GLOSSARY.md).

tutorials.pytorch.kr writes 합니다체 statements, "-세요" instructions and "-까요?/-나요?"
questions; the kit's Korean does the same in every catalog (lessons, assignments, widgets,
grader). And a term the glossary fixes is translated the same way everywhere: gradient is
변화도 (기울기 only for a slope), a leaf is 잎, a parameter 매개변수, the backward pass 역전파.
And every `code span` of an English message is in its Korean one."""

import re
from collections import Counter
from pathlib import Path

import pytest

from translation_tool import load_tool

ROOT = Path(__file__).resolve().parents[2]
TOOL = load_tool()
CATALOGS = TOOL.catalogs("ko")


def messages(path: Path):
    """(English, Korean) of every translated message of a catalog, plural forms joined."""
    for message in TOOL.read(path, "ko_KR"):
        if not message.id or not message.string:
            continue
        english = " ".join(message.id) if isinstance(message.id, tuple) else message.id
        korean = " ".join(message.string) if isinstance(message.string, tuple) else message.string
        yield english, korean


def without_code(text: str) -> str:
    """Prose only: inline code, code spans and URLs taken out."""
    return re.sub(r"`[^`]*`|\(https?://[^)]*\)|https?://\S+|\{[a-z_!]*\}", " ", text)


# A statement in 해요체: a word ending in 요 that is not an instruction (-세요), a question
# (-까요, -나요, -가요) or a noun that ends in 요 (필요, 중요, 주요).
HAEYO = re.compile(r"[가-힣]*[가-힣]요(?![가-힣])")
ALLOWED_YO = ("세요", "까요", "나요", "가요", "필요", "중요", "주요")


def register_problems(korean: str) -> list[str]:
    prose = without_code(korean)
    found = [w for w in HAEYO.findall(prose) if not w.endswith(ALLOWED_YO)]
    found += re.findall(r"[가-힣]*(?:십시오|습니까|읍니까)", prose)
    found += re.findall(r"[가-힣]+(?:예요|이에요|어요|아요|해요|돼요|죠)(?![가-힣])", prose)
    return sorted(set(found))


@pytest.mark.parametrize("path", CATALOGS, ids=[str(p.relative_to(ROOT)) for p in CATALOGS])
def test_one_register(path):
    bad = [(english[:60], words) for english, korean in messages(path)
           if (words := register_problems(korean))]
    assert bad == [], f"{path.relative_to(ROOT)}: not 합니다체/-세요 (GLOSSARY.md, Register)"


@pytest.mark.parametrize("path", CATALOGS, ids=[str(p.relative_to(ROOT)) for p in CATALOGS])
def test_glossary_terms(path):
    bad = []
    for english, korean in messages(path):
        prose_en, prose_ko = without_code(english).lower(), without_code(korean)
        if "기울기" in prose_ko and "slope" not in prose_en:
            bad.append(("gradient is 변화도, not 기울기", english[:60]))
        if re.search(r"\bgradients?\b", prose_en) and "기울기" in prose_ko:
            if "slope" not in prose_en:
                bad.append(("gradient is 변화도", english[:60]))
        if "리프" in prose_ko:
            bad.append(("leaf is 잎, not 리프", english[:60]))
        if "파라미터" in prose_ko:
            bad.append(("parameter is 매개변수, not 파라미터", english[:60]))
        if re.search(r"\bbackward pass\b", prose_en) and "역전파" not in prose_ko:
            bad.append(("the backward pass is 역전파", english[:60]))
        if re.search(r"\bforward pass\b", prose_en) and "순전파" not in prose_ko:
            bad.append(("the forward pass is 순전파", english[:60]))
    assert bad == [], f"{path.relative_to(ROOT)}: see notebooks/locale/ko/GLOSSARY.md"


# "no gradient" is what the stepper's sentence "{who} got {gradient}" says after
# "도착한 변화도:", where Korean says just 없음.
SAID_BY_THEIR_SENTENCE = {"no gradient"}


def test_gradient_is_translated_as_the_glossary_says():
    """Where an English sentence says "gradient" (outside code), its Korean says 변화도
    (gradient descent is 경사 하강법)."""
    missing = []
    for path in CATALOGS:
        for english, korean in messages(path):
            prose = re.sub(r"gradient descent", " ", without_code(english), flags=re.IGNORECASE)
            if re.search(r"\bgradients?\b", prose, re.IGNORECASE) \
                    and english not in SAID_BY_THEIR_SENTENCE and "변화도" not in korean:
                missing.append((path.name, english[:70], korean[:70]))
    assert missing == []


def test_the_checks_can_fail():
    """The rules above catch what they are written for."""
    assert register_problems("변화도를 더해요.") == ["더해요"]
    assert register_problems("실행하십시오.") == ["실행하십시오"]
    assert register_problems("텐서예요") == ["텐서예요"]
    assert register_problems("실행하세요. 무엇일까요? 호출했나요? 필요합니다.") == []
    assert register_problems("`y = x  # 아니에요`") == []


# Lesson 0's note on the repository is adapted, not translated: the Korean lessons live in
# notebooks/ko/, and `make lab LANG=ko` opens them.
ADAPTED = ("> **Opened from the kit's repository?**",)


@pytest.mark.parametrize("path", CATALOGS, ids=[str(p.relative_to(ROOT)) for p in CATALOGS])
def test_every_code_span_of_the_english_is_in_the_korean(path):
    """`result`, `input` and every other identifier stay as PyTorch spells them."""
    missing = []
    for english, korean in messages(path):
        if english.startswith(ADAPTED):
            continue
        spans = Counter(re.findall(r"`[^`\n]+`", english))
        spans.subtract(Counter(re.findall(r"`[^`\n]+`", korean)))
        if lost := sorted(span for span, count in spans.items() if count > 0):
            missing.append((english[:60], lost))
    assert missing == []

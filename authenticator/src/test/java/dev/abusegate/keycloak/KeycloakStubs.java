package dev.abusegate.keycloak;

import java.lang.reflect.Proxy;

/** Stand-ins for Keycloak's interfaces in unit tests of the adapters: each method answers as the test says. */
public final class KeycloakStubs {

    /** A stub's answer to one call: the method's name and its arguments. */
    public interface Answer {
        Object answer(String method, Object[] args);
    }

    private KeycloakStubs() {
    }

    /** An instance of {@code type} whose methods answer with {@code answer}; equality is identity. */
    public static <T> T stub(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> {
            if (m.getDeclaringClass() == Object.class) {
                return switch (m.getName()) {
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == a[0];
                    default -> type.getSimpleName() + " stub";
                };
            }
            return answer.answer(m.getName(), a);
        }));
    }
}
